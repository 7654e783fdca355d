// storekeeper_sdk.hpp: a header-only C++17 wrapper of storekeeper_sdk.h for Cocos, Unreal
// and any C++ game.
//
//   storekeeper::Client client(R"({"serverURL": "...", "dataDirectory": "...", ...})");
//   client.onEvent([](const storekeeper::Event &event) { /* event.name, event.json */ });
//   client.signIn(playerId, token, [](const storekeeper::Answer &answer) { ... });
//   client.start();
//   client.purchase("coins100", 1, [](const storekeeper::Answer &answer) {
//       if (answer.ok()) show(answer.result);   // PURCHASE: {"status": "delivered", ...}
//   });
//   // once a frame, on the game thread:
//   client.pump();
//
// An RAII client (closed by its destructor; movable, not copyable), used from the game
// thread; std::function handlers that run only inside pump(), never on a library thread. It
// holds no logic: each method is one sk_call, each answer the library's JSON text (parse
// `result` with the engine's JSON: Unreal's FJsonSerializer, Cocos' rapidjson). What the
// methods take and answer is documented in storekeeper_sdk.h.
#ifndef STOREKEEPER_SDK_HPP
#define STOREKEEPER_SDK_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "storekeeper_sdk.h"

namespace storekeeper {

namespace detail {

/// The JSON string literal of `text` (quotes and escapes added).
inline std::string quote(const std::string &text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
                out += escaped;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out + "\"";
}

/// The members of the JSON object `json` at its top level: name -> raw value text. Only
/// as much JSON as the library writes (valid, UTF-8) is understood.
inline std::unordered_map<std::string, std::string> members(const std::string &json) {
    std::unordered_map<std::string, std::string> found;
    std::size_t i = json.find('{');
    if (i == std::string::npos) return found;
    auto skipString = [&](std::size_t at) {  // at: the opening quote; returns past the closing one
        for (++at; at < json.size(); ++at) {
            if (json[at] == '\\') ++at;
            else if (json[at] == '"') return at + 1;
        }
        return at;
    };
    auto skipSpace = [&](std::size_t at) {
        while (at < json.size() && (json[at] == ' ' || json[at] == '\n' || json[at] == '\r' || json[at] == '\t')) ++at;
        return at;
    };
    ++i;
    while (true) {
        i = skipSpace(i);
        if (i >= json.size() || json[i] != '"') return found;
        std::size_t keyEnd = skipString(i);
        std::string key = json.substr(i + 1, keyEnd - i - 2);
        i = skipSpace(keyEnd);
        if (i >= json.size() || json[i] != ':') return found;
        i = skipSpace(i + 1);
        std::size_t start = i;
        int depth = 0;
        for (; i < json.size(); ++i) {
            char c = json[i];
            if (c == '"') {
                i = skipString(i) - 1;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (depth == 0) break;
                --depth;
            } else if (c == ',' && depth == 0) {
                break;
            }
        }
        found[key] = json.substr(start, i - start);
        if (i >= json.size() || json[i] == '}') return found;
        ++i;  // the comma
    }
}

/// The text of a JSON string value (escapes other than \" and \\ are kept as written).
inline std::string unquote(const std::string &value) {
    if (value.size() < 2 || value.front() != '"') return value;
    std::string out;
    for (std::size_t i = 1; i + 1 < value.size(); ++i) {
        if (value[i] == '\\' && i + 2 < value.size() && (value[i + 1] == '"' || value[i + 1] == '\\')) ++i;
        out += value[i];
    }
    return out;
}

}  // namespace detail

/// sk_open refused the configuration: `code` as storekeeper_sdk.h lists them.
class Error : public std::runtime_error {
public:
    Error(std::string code, const std::string &message)
        : std::runtime_error(code + ": " + message), code(std::move(code)) {}
    /// The stable code (invalid_config, store_unavailable, ...).
    std::string code;
};

/// A call's answer.
struct Answer {
    /// The call's id.
    std::int64_t id = 0;
    /// The `result` object's JSON text; empty on error.
    std::string result;
    /// The error's code (empty on success): storekeeper_sdk.h's codes, and `queue_full` or
    /// `client_closed` when the call could not even start.
    std::string errorCode;
    /// The error's message.
    std::string errorMessage;
    /// The whole event's JSON text.
    std::string json;

    /// Whether the call succeeded.
    bool ok() const { return errorCode.empty(); }
};

/// An update nobody asked for (`purchase`, `entitlementsChanged`, `eventsDropped`).
struct Event {
    /// The event's name.
    std::string name;
    /// The whole event's JSON text.
    std::string json;
};

/// One purchase pipeline, closed when destroyed. Use a Client from one thread, the game's
/// (it keeps the handlers of calls in flight without a lock); handlers only ever run inside
/// pump(). The C functions beneath it may be called from any thread.
class Client {
public:
    using AnswerHandler = std::function<void(const Answer &)>;
    using EventHandler = std::function<void(const Event &)>;

    /// Opens a client (sk_open); throws Error when the configuration is refused.
    explicit Client(const std::string &configJSON) {
        char *error = nullptr;
        handle_ = sk_open(configJSON.c_str(), &error);
        if (handle_ == nullptr) {
            std::string json = error ? error : "";
            sk_free(error);
            auto fields = detail::members(json);
            throw Error(detail::unquote(fields["code"]), detail::unquote(fields["message"]));
        }
    }

    ~Client() { sk_close(handle_); }
    Client(const Client &) = delete;
    Client &operator=(const Client &) = delete;
    Client(Client &&other) noexcept
        : handle_(std::exchange(other.handle_, nullptr)), handlers_(std::move(other.handlers_)),
          early_(std::move(other.early_)), onEvent_(std::move(other.onEvent_)) {}
    Client &operator=(Client &&other) noexcept {
        if (this != &other) {
            sk_close(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
            handlers_ = std::move(other.handlers_);
            early_ = std::move(other.early_);
            onEvent_ = std::move(other.onEvent_);
        }
        return *this;
    }

    /// The library's ABI version.
    static std::string version() { return sk_version(); }

    /// The handler of updates nobody asked for; replaces the previous one.
    void onEvent(EventHandler handler) { onEvent_ = std::move(handler); }

    /// Starts any method with `paramsJSON` (a JSON object); `handler` (may be empty) gets
    /// its answer from pump(). Returns the call's id, or 0 or -1 (SK_CALL_NO_CLIENT,
    /// SK_CALL_QUEUE_FULL) when it could not start: then the handler gets `client_closed`
    /// or `queue_full` at the next pump().
    std::int64_t call(const std::string &method, const std::string &paramsJSON, AnswerHandler handler = {}) {
        std::int64_t id = sk_call(handle_, method.c_str(), paramsJSON.c_str());
        if (id > 0) {
            if (handler) handlers_[id] = std::move(handler);
        } else if (handler) {
            Answer answer;
            answer.id = id;
            answer.errorCode = id == SK_CALL_QUEUE_FULL ? "queue_full" : "client_closed";
            answer.errorMessage = id == SK_CALL_QUEUE_FULL ? "too many events wait: pump, then call again"
                                                           : "the client is closed";
            early_.emplace_back(std::move(answer), std::move(handler));
        }
        return id;
    }

    /// signIn: the player and their token for the purchase server.
    std::int64_t signIn(const std::string &playerId, const std::string &token, AnswerHandler handler = {}) {
        return call("signIn", "{\"playerId\":" + detail::quote(playerId) + ",\"token\":" + detail::quote(token) + "}",
                    std::move(handler));
    }
    /// signOut.
    std::int64_t signOut(AnswerHandler handler = {}) { return call("signOut", "{}", std::move(handler)); }
    /// start: resumes what the journal holds; call once at launch.
    std::int64_t start(AnswerHandler handler = {}) { return call("start", "{}", std::move(handler)); }
    /// products: the store's products with these ids.
    std::int64_t products(const std::vector<std::string> &productIds, AnswerHandler handler = {}) {
        std::string ids;
        for (const auto &id : productIds) ids += (ids.empty() ? "" : ",") + detail::quote(id);
        return call("products", "{\"productIds\":[" + ids + "]}", std::move(handler));
    }
    /// purchase: answered once settled (delivered, pending, cancelled, failed).
    std::int64_t purchase(const std::string &productId, int quantity, AnswerHandler handler = {}) {
        return call("purchase",
                    "{\"productId\":" + detail::quote(productId) + ",\"quantity\":" + std::to_string(quantity) + "}",
                    std::move(handler));
    }
    /// restore: "Restore Purchases".
    std::int64_t restore(AnswerHandler handler = {}) { return call("restore", "{}", std::move(handler)); }
    /// entitlements: the server's, or the cache when it cannot answer or `refresh` is false.
    std::int64_t entitlements(bool refresh, AnswerHandler handler = {}) {
        return call("entitlements", refresh ? "{\"refresh\":true}" : "{\"refresh\":false}", std::move(handler));
    }
    /// pendingDeliveries: orders paid for that the server has not delivered yet.
    std::int64_t pendingDeliveries(AnswerHandler handler = {}) {
        return call("pendingDeliveries", "{}", std::move(handler));
    }
    /// events: sends the purchase-flow log to the server.
    std::int64_t events(AnswerHandler handler = {}) { return call("events", "{}", std::move(handler)); }

    /// Dispatches every waiting answer and update to its handler, on this thread. With
    /// `timeoutMilliseconds` > 0, first waits up to that long for one. Returns how many
    /// were dispatched.
    std::size_t pump(int timeoutMilliseconds = 0) {
        std::size_t dispatched = 0;
        auto early = std::move(early_);
        early_.clear();
        for (auto &entry : early) {
            entry.second(entry.first);
            ++dispatched;
        }
        char *raw = timeoutMilliseconds > 0 ? sk_wait(handle_, timeoutMilliseconds) : sk_poll(handle_);
        while (raw != nullptr) {
            std::string json = raw;
            sk_free(raw);
            dispatch(json);
            ++dispatched;
            raw = sk_poll(handle_);
        }
        return dispatched;
    }

    /// The underlying sk_client, for calls this wrapper does not cover.
    sk_client *handle() const { return handle_; }

private:
    void dispatch(const std::string &json) {
        auto fields = detail::members(json);
        auto event = fields.find("event");
        if (event != fields.end()) {
            if (onEvent_) onEvent_(Event{detail::unquote(event->second), json});
            return;
        }
        Answer answer;
        answer.id = std::stoll(fields.count("id") ? fields["id"] : "0");
        answer.json = json;
        auto error = fields.find("error");
        if (error != fields.end()) {
            auto errorFields = detail::members(error->second);
            answer.errorCode = detail::unquote(errorFields["code"]);
            answer.errorMessage = detail::unquote(errorFields["message"]);
        } else {
            answer.result = fields["result"];
        }
        auto handler = handlers_.find(answer.id);
        if (handler == handlers_.end()) return;
        AnswerHandler run = std::move(handler->second);
        handlers_.erase(handler);
        run(answer);
    }

    sk_client *handle_ = nullptr;
    std::unordered_map<std::int64_t, AnswerHandler> handlers_;
    std::vector<std::pair<Answer, AnswerHandler>> early_;
    EventHandler onEvent_;
};

}  // namespace storekeeper

#endif  // STOREKEEPER_SDK_HPP

// storekeeper_sdk.hpp against `storekeeper serve --dev`: the RAII client, handlers run by
// pump() on this thread, a coins purchase reaching the server's wallet, refused
// configurations as exceptions, bad calls as error answers, JSON escaping of parameters.
// Run by Scripts/engines/run.py (SK_SERVER_URL, SK_WORK_DIR, STOREKEEPER_BINARY).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <thread>

#include "storekeeper_sdk.hpp"

namespace {

int failures = 0;

void check(bool condition, const std::string &what) {
    if (!condition) {
        ++failures;
        std::cerr << "FAIL " << what << "\n";
    }
}

std::string env(const char *name) {
    const char *value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        std::cerr << name << " is not set (run Scripts/engines/run.py)\n";
        std::exit(2);
    }
    return value;
}

std::string command_output(const std::string &command) {
    std::string out;
    FILE *pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return out;
    char buffer[4096];
    std::size_t read;
    while ((read = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, read);
    pclose(pipe);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out;
}

std::string config(const std::string &name) {
    std::string url = env("SK_SERVER_URL");
    return R"({"serverURL":")" + url + R"(","dataDirectory":")" + env("SK_WORK_DIR") + "/cpp-" + name +
           R"(","store":"emulator","emulatorURL":")" + url + R"(","deviceId":"cpp-)" + name + "-" +
           std::to_string(getpid()) + R"("})";
}

/// Pumps until `answer` is set or 60 s pass.
void pump_until(storekeeper::Client &client, const std::optional<storekeeper::Answer> &answer) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!answer && std::chrono::steady_clock::now() < deadline) client.pump(100);
}

void test_refused_configurations() {
    try {
        storekeeper::Client client(R"({"serverURL":"http://127.0.0.1:1","dataDirectory":"/tmp/sk"})");
        check(false, "storekit2 opened");
    } catch (const storekeeper::Error &error) {
        check(error.code == "store_unavailable", "storekit2 refused with " + error.code);
    }
    try {
        storekeeper::Client client("{");
        check(false, "bad JSON opened");
    } catch (const storekeeper::Error &error) {
        check(error.code == "invalid_config", "bad JSON refused with " + error.code);
    }
}

void test_purchase() {
    const std::thread::id game = std::this_thread::get_id();
    storekeeper::Client client(config("main"));
    check(storekeeper::Client::version() == "1.0.0", "version " + storekeeper::Client::version());

    const std::string player = "cpp-player-" + std::to_string(getpid());
    const std::string token = command_output("'" + env("STOREKEEPER_BINARY") + "' token --player " + player);

    std::optional<storekeeper::Answer> signedIn, started, products, bought, unknown, quoted;
    client.signIn(player, token, [&](const storekeeper::Answer &answer) {
        check(std::this_thread::get_id() == game, "handlers run on the pumping thread");
        signedIn = answer;
    });
    pump_until(client, signedIn);
    check(signedIn && signedIn->ok() && signedIn->result.find(player) != std::string::npos, "signIn");

    client.start([&](const storekeeper::Answer &answer) { started = answer; });
    pump_until(client, started);
    check(started && started->ok(), "start: " + (started ? started->json : "no answer"));

    client.products({"coins100", "coins500"}, [&](const storekeeper::Answer &answer) { products = answer; });
    pump_until(client, products);
    check(products && products->ok() && products->result.find("\"coins500\"") != std::string::npos,
          "products: " + (products ? products->json : "no answer"));

    client.purchase("coins500", 1, [&](const storekeeper::Answer &answer) { bought = answer; });
    pump_until(client, bought);
    check(bought && bought->ok() && bought->result.find("\"status\":\"delivered\"") != std::string::npos &&
              bought->result.find("\"coins\":500") != std::string::npos,
          "purchase: " + (bought ? bought->json : "no answer"));

    std::string wallet = command_output("curl -s '" + env("SK_SERVER_URL") +
                                        "/v1/players/me/wallet' -H 'Authorization: Bearer " + token + "'");
    check(wallet.find("\"coins\":500") != std::string::npos, "the server's wallet: " + wallet);

    client.call("fly", "{}", [&](const storekeeper::Answer &answer) { unknown = answer; });
    pump_until(client, unknown);
    check(unknown && unknown->errorCode == "unknown_method" && !unknown->errorMessage.empty(),
          "unknown method: " + (unknown ? unknown->json : "no answer"));

    // Quotes, backslashes and control characters in a parameter make valid JSON: the call
    // succeeds (no invalid_json) and the store, knowing no such product, lists none.
    client.products({"a\"b\\c\nd"}, [&](const storekeeper::Answer &answer) { quoted = answer; });
    pump_until(client, quoted);
    check(quoted && quoted->ok() && quoted->result == R"({"products":[]})",
          "escaped parameters: " + (quoted ? quoted->json : "no answer"));

    storekeeper::Client moved = std::move(client);
    std::optional<storekeeper::Answer> afterMove;
    moved.pendingDeliveries([&](const storekeeper::Answer &answer) { afterMove = answer; });
    pump_until(moved, afterMove);
    check(afterMove && afterMove->ok(), "a moved client still works");

    std::optional<storekeeper::Answer> onMovedFrom;
    client.start([&](const storekeeper::Answer &answer) { onMovedFrom = answer; });
    client.pump();
    check(onMovedFrom && onMovedFrom->errorCode == "client_closed",
          "a moved-from client answers client_closed from pump()");
}

}  // namespace

int main() {
    test_refused_configurations();
    test_purchase();
    if (failures > 0) {
        std::cerr << "wrapper_test: " << failures << " failure(s)\n";
        return 1;
    }
    std::cout << "wrapper_test: all passed\n";
    return 0;
}

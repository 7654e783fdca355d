/* The C ABI of libStoreKeeperSDK driven from C against `storekeeper serve --dev`: sign in,
 * products, buy coins, the wallet reflects it; every kind of bad input is answered as
 * storekeeper_sdk.h documents; any thread may call. Run by Scripts/engines/run.py, which
 * sets SK_SERVER_URL, SK_WORK_DIR and STOREKEEPER_BINARY. */
#include <pthread.h>
#include <unistd.h>

#include "test_support.h"

static char config[4096];

static void make_config(const char *name, const char *extra) {
    snprintf(config, sizeof config,
             "{\"serverURL\":\"%s\",\"dataDirectory\":\"%s/%s\",\"store\":\"emulator\",\"emulatorURL\":\"%s\","
             "\"deviceId\":\"%s-%d\"%s}",
             require_env("SK_SERVER_URL"), require_env("SK_WORK_DIR"), name, require_env("SK_SERVER_URL"), name,
             (int)getpid(), extra);
}

/* sk_open's error code for `config_json`, checking that it answered NULL. */
static void expect_open_error(const char *config_json, const char *code) {
    char *error = (char *)"untouched";
    sk_client *client = sk_open(config_json, &error);
    CHECK(client == NULL, "sk_open(%s) opened a client", config_json ? config_json : "NULL");
    CHECK(error != NULL && json_has_string(error, "code", code), "sk_open(%s): %s, expected %s",
          config_json ? config_json : "NULL", error ? error : "NULL", code);
    if (client != NULL) sk_close(client);
    sk_free(error);
}

static void expect_call_error(sk_client *client, const char *method, const char *params, const char *code) {
    int64_t id = sk_call(client, method, params);
    CHECK(id > 0, "sk_call answered %lld", (long long)id);
    char *answer = await_answer(client, id, 10, NULL);
    CHECK(answer != NULL && json_has_string(answer, "code", code), "%s(%s): %s, expected %s",
          method ? method : "NULL", params ? params : "NULL", answer ? answer : "NULL", code);
    sk_free(answer);
}

static void test_version(void) {
    CHECK(strcmp(sk_version(), "1.0.0") == 0, "version %s", sk_version());
}

static void test_bad_configs(void) {
    expect_open_error(NULL, "invalid_argument");
    expect_open_error("{not json", "invalid_config");
    expect_open_error("[]", "invalid_config");
    expect_open_error("\"\xff\xfe\"", "invalid_utf8");
    expect_open_error("{\"serverURL\":\"http://127.0.0.1:1\"}", "invalid_config");
    expect_open_error("{\"serverURL\":\"http://127.0.0.1:1\",\"dataDirectory\":\"/tmp/sk\",\"store\":\"nfc\"}",
                      "invalid_config");
    expect_open_error("{\"serverURL\":\"http://127.0.0.1:1\",\"dataDirectory\":\"/tmp/sk\"}", "store_unavailable");
    expect_open_error("{\"serverURL\":\"http://127.0.0.1:1\",\"dataDirectory\":\"/tmp/sk\",\"store\":\"storekit1\"}",
                      "store_unavailable");
    expect_open_error("{\"serverURL\":\"http://127.0.0.1:1\",\"dataDirectory\":\"/tmp/sk\",\"store\":\"emulator\"}",
                      "invalid_config");
    expect_open_error("{\"serverURL\":\"http://127.0.0.1:1\",\"dataDirectory\":\"/proc/nope/sk\",\"store\":"
                      "\"emulator\",\"emulatorURL\":\"http://127.0.0.1:1\",\"deviceId\":\"d\"}",
                      "data_directory");
    expect_open_error(
        "{\"serverURL\":\"http://127.0.0.1:1\",\"dataDirectory\":\"/tmp/sk\",\"store\":\"play_emulator\"}",
        "invalid_config");
    /* No error pointer: still NULL, no crash. */
    CHECK(sk_open("{", NULL) == NULL, "sk_open without error pointer opened");
}

static void test_null_and_closed_clients(void) {
    CHECK(sk_call(NULL, "start", NULL) == SK_CALL_NO_CLIENT, "sk_call(NULL)");
    CHECK(sk_poll(NULL) == NULL, "sk_poll(NULL)");
    CHECK(sk_wait(NULL, 10) == NULL, "sk_wait(NULL)");
    sk_close(NULL);
    sk_free(NULL);
    /* A made-up handle is answered as closed. */
    CHECK(sk_call((sk_client *)(uintptr_t)0xdeadbeef, "start", NULL) == SK_CALL_NO_CLIENT, "made-up handle");

    make_config("closed", "");
    char *error = NULL;
    sk_client *client = sk_open(config, &error);
    CHECK(client != NULL && error == NULL, "open: %s", error ? error : "");
    sk_close(client);
    CHECK(sk_call(client, "start", NULL) == SK_CALL_NO_CLIENT, "call on a closed client");
    CHECK(sk_poll(client) == NULL, "poll on a closed client");
    CHECK(sk_wait(client, 50) == NULL, "wait on a closed client");
    sk_close(client);
}

static void *close_later(void *client) {
    usleep(200 * 1000);
    sk_close(client);
    return NULL;
}

static void test_close_wakes_waiters(void) {
    make_config("wake", "");
    sk_client *client = sk_open(config, NULL);
    CHECK(client != NULL, "open");
    pthread_t closer;
    pthread_create(&closer, NULL, close_later, client);
    double started = now_seconds();
    char *event = sk_wait(client, 10000);
    double waited = now_seconds() - started;
    CHECK(event == NULL && waited < 5, "sk_wait across sk_close: %s after %.1f s", event ? event : "NULL", waited);
    pthread_join(closer, NULL);
}

static void test_bad_calls(sk_client *client) {
    expect_call_error(client, NULL, "{}", "invalid_argument");
    expect_call_error(client, "sign\xc3\x28In", "{}", "invalid_utf8");
    expect_call_error(client, "signIn", "{\"playerId\":\"\xe2\x82\"}", "invalid_utf8");
    expect_call_error(client, "signIn", "{", "invalid_json");
    expect_call_error(client, "signIn", "[1,2]", "invalid_json");
    expect_call_error(client, "signIn", "", "invalid_json");
    expect_call_error(client, "fly", "{}", "unknown_method");
    expect_call_error(client, "", NULL, "unknown_method");
    expect_call_error(client, "signIn", "{\"playerId\":\"p\"}", "invalid_params");
    expect_call_error(client, "signIn", "{\"playerId\":7,\"token\":\"t\"}", "invalid_params");
    expect_call_error(client, "products", NULL, "invalid_params");
    expect_call_error(client, "purchase", "{\"productId\":\"coins100\"}", "not_running");
    expect_call_error(client, "purchase", "{\"quantity\":1}", "invalid_params");

    int64_t id = sk_call(client, "signIn", "{\"playerId\":\"p\"}");
    char *answer = await_answer(client, id, 10, NULL);
    CHECK(answer != NULL && strstr(answer, "token") != NULL, "the message names the missing field: %s",
          answer ? answer : "NULL");
    sk_free(answer);
}

static void test_purchase(sk_client *client) {
    char player[64];
    snprintf(player, sizeof player, "c-player-%d", (int)getpid());
    char *token = player_token(player);
    CHECK(token != NULL, "no token from storekeeper token");
    if (token == NULL) return;

    char params[2048];
    snprintf(params, sizeof params, "{\"playerId\":\"%s\",\"token\":\"%s\"}", player, token);
    char *answer = call_and_wait(client, "signIn", params, 10);
    CHECK(answer != NULL && json_has_string(answer, "playerId", player), "signIn: %s", answer ? answer : "NULL");
    sk_free(answer);

    answer = call_and_wait(client, "start", NULL, 30);
    CHECK(answer != NULL && strstr(answer, "\"journalRecords\":0") != NULL, "start: %s", answer ? answer : "NULL");
    sk_free(answer);

    answer = call_and_wait(client, "start", NULL, 10);
    CHECK(answer != NULL && json_has_string(answer, "code", "not_running"), "second start: %s",
          answer ? answer : "NULL");
    sk_free(answer);

    answer = call_and_wait(client, "products", "{\"productIds\":[\"coins100\",\"no.such.product\"]}", 30);
    CHECK(answer != NULL && json_has_string(answer, "productId", "coins100") &&
              strstr(answer, "\"priceMilliunits\":990") != NULL && strstr(answer, "no.such.product") == NULL,
          "products: %s", answer ? answer : "NULL");
    sk_free(answer);

    answer = call_and_wait(client, "purchase", "{\"productId\":\"coins100\"}", 60);
    CHECK(answer != NULL && json_has_string(answer, "status", "delivered"), "purchase: %s", answer ? answer : "NULL");
    char *transaction = json_string(answer, "transactionId");
    char *order = json_string(answer, "orderId");
    CHECK(transaction != NULL && order != NULL, "the purchase names its transaction and order: %s",
          answer ? answer : "NULL");
    CHECK(answer != NULL && strstr(answer, "\"balances\":{\"coins\":100}") != NULL, "delivery balances: %s",
          answer ? answer : "NULL");
    sk_free(answer);

    answer = call_and_wait(client, "purchase", "{\"productId\":\"coins100\",\"quantity\":2}", 60);
    CHECK(answer != NULL && json_has_string(answer, "status", "delivered") &&
              strstr(answer, "\"balances\":{\"coins\":300}") != NULL,
          "two more: %s", answer ? answer : "NULL");
    sk_free(answer);

    char *wallet = server_get("/v1/players/me/wallet", token);
    CHECK(wallet != NULL && strstr(wallet, "\"coins\":300") != NULL, "the server's wallet: %s",
          wallet ? wallet : "NULL");
    free(wallet);

    char path[512];
    snprintf(path, sizeof path, "/v1/admin/players/%s/timeline", player);
    char command_token[] = "dev-admin-key";
    char *timeline = server_get(path, command_token);
    CHECK(timeline != NULL && transaction != NULL && strstr(timeline, transaction) != NULL,
          "the server's timeline names transaction %s", transaction ? transaction : "NULL");
    free(timeline);

    answer = call_and_wait(client, "pendingDeliveries", NULL, 10);
    CHECK(answer != NULL && strstr(answer, "\"purchases\":[]") != NULL, "pendingDeliveries: %s",
          answer ? answer : "NULL");
    sk_free(answer);

    answer = call_and_wait(client, "entitlements", "{\"refresh\":true}", 30);
    CHECK(answer != NULL && json_has_string(answer, "playerId", player) && strstr(answer, "\"isCached\":false"),
          "entitlements: %s", answer ? answer : "NULL");
    sk_free(answer);

    answer = call_and_wait(client, "restore", NULL, 30);
    CHECK(answer != NULL && strstr(answer, "\"results\":[]") != NULL, "restore (consumables only): %s",
          answer ? answer : "NULL");
    sk_free(answer);

    answer = call_and_wait(client, "events", NULL, 30);
    CHECK(answer != NULL && strstr(answer, "\"unsent\":[]") != NULL, "events: %s", answer ? answer : "NULL");
    sk_free(answer);

    answer = call_and_wait(client, "signOut", NULL, 10);
    CHECK(answer != NULL && strstr(answer, "\"result\":{}") != NULL, "signOut: %s", answer ? answer : "NULL");
    sk_free(answer);
    expect_call_error(client, "purchase", "{\"productId\":\"coins100\"}", "no_player_signed_in");

    free(transaction);
    free(order);
    free(token);
}

static int purchase_events = 0;
static char last_purchase_event[8192];

/* Counts the unsolicited `purchase` events and keeps the last one. */
static void count_purchase_events(char *event) {
    if (strncmp(event, "{\"event\":\"purchase\",", 20) == 0) {
        purchase_events++;
        snprintf(last_purchase_event, sizeof last_purchase_event, "%s", event);
    }
    printf("  event: %s\n", event);
    sk_free(event);
}

/* Ask to Buy: the purchase call answers `pending`. The parent approves on the emulator while
 * the game is closed (the server delivers from Apple's notification and finishes the
 * transaction at Apple); at the next launch, `start` tells the delivery as exactly one
 * `purchase` event. A purchase answered by its call is never told again as an event. */
static void test_ask_to_buy(void) {
    make_config("ask", "");
    char player[64], device[128], path[256];
    snprintf(player, sizeof player, "ask-player-%d", (int)getpid());
    snprintf(device, sizeof device, "ask-%d", (int)getpid());
    snprintf(path, sizeof path, "/emulator/v1/devices/%s", device);
    free(server_request("PUT", path, "{\"askToBuy\":true}", NULL));
    char *token = player_token(player);
    char params[2048];
    snprintf(params, sizeof params, "{\"playerId\":\"%s\",\"token\":\"%s\"}", player, token ? token : "");

    sk_client *client = sk_open(config, NULL);
    CHECK(client != NULL, "open");
    sk_free(call_and_wait(client, "signIn", params, 10));
    sk_free(call_and_wait(client, "start", NULL, 30));
    int64_t id = sk_call(client, "purchase", "{\"productId\":\"coins100\"}");
    char *answer = await_answer(client, id, 60, count_purchase_events);
    CHECK(answer != NULL && json_has_string(answer, "status", "pending"), "Ask to Buy purchase: %s",
          answer ? answer : "NULL");
    sk_free(answer);
    sk_close(client);

    snprintf(path, sizeof path, "/emulator/v1/devices/%s/purchases/pending", device);
    char *pending = server_get(path, NULL);
    char *pending_id = json_string(pending, "pendingId");
    CHECK(pending_id != NULL, "the emulator holds the purchase for approval: %s", pending ? pending : "NULL");
    free(pending);
    if (pending_id != NULL) {
        snprintf(path, sizeof path, "/emulator/v1/devices/%s/purchases/%s/approve", device, pending_id);
        free(server_request("POST", path, NULL, NULL));
        free(pending_id);
    }

    client = sk_open(config, NULL);
    CHECK(client != NULL, "reopen");
    sk_free(call_and_wait(client, "signIn", params, 10));
    answer = await_answer(client, sk_call(client, "start", NULL), 30, count_purchase_events);
    CHECK(answer != NULL && strstr(answer, "\"journalRecords\":1") != NULL, "start again: %s",
          answer ? answer : "NULL");
    sk_free(answer);
    double deadline = now_seconds() + 60;
    while (purchase_events == 0 && now_seconds() < deadline) {
        char *event = sk_wait(client, 200);
        if (event != NULL) count_purchase_events(event);
    }
    CHECK(purchase_events == 1 && json_has_string(last_purchase_event, "status", "delivered") &&
              strstr(last_purchase_event, "\"productId\":\"coins100\"") != NULL,
          "one purchase event, delivered: %d, %s", purchase_events, last_purchase_event);

    snprintf(path, sizeof path, "/emulator/v1/devices/%s", device);
    free(server_request("PUT", path, "{\"askToBuy\":false}", NULL));
    id = sk_call(client, "purchase", "{\"productId\":\"coins100\"}");
    answer = await_answer(client, id, 60, count_purchase_events);
    CHECK(answer != NULL && json_has_string(answer, "status", "delivered") &&
              strstr(answer, "\"coins\":200") != NULL,
          "second purchase: %s", answer ? answer : "NULL");
    sk_free(answer);
    for (int i = 0; i < 10; i++) {
        char *event = sk_wait(client, 100);
        if (event != NULL) count_purchase_events(event);
    }
    CHECK(purchase_events == 1, "a purchase answered by its call came again as an event (%d events)",
          purchase_events);
    free(token);
    sk_close(client);
}

static void test_queue_bound(void) {
    make_config("bounded", ",\"eventQueueCapacity\":3");
    sk_client *client = sk_open(config, NULL);
    CHECK(client != NULL, "open");
    int64_t ids[3];
    for (int i = 0; i < 3; i++) ids[i] = sk_call(client, "pendingDeliveries", NULL);
    CHECK(ids[0] == 1 && ids[1] == 2 && ids[2] == 3, "ids %lld %lld %lld", (long long)ids[0], (long long)ids[1],
          (long long)ids[2]);
    CHECK(sk_call(client, "pendingDeliveries", NULL) == SK_CALL_QUEUE_FULL, "a fourth call finds the queue full");
    /* The answers come in any order. */
    int seen = 0;
    for (int i = 0; i < 3; i++) {
        char *answer = sk_wait(client, 10000);
        long long id = json_integer(answer, "id", 0);
        CHECK(id >= 1 && id <= 3 && !(seen & (1 << id)), "answer %s", answer ? answer : "NULL");
        seen |= 1 << id;
        sk_free(answer);
    }
    CHECK(sk_call(client, "pendingDeliveries", NULL) == 4, "room again after polling");
    sk_close(client);
}

/* The bounded queue overflowing with an unsolicited event: a player who owns the level pack
 * (bought on another data directory) signs in where the cache knows nothing. With a queue of
 * 2, two `entitlements` calls reserve both places; the first to read the server tells
 * `entitlementsChanged` before either answer is queued, so it finds no room whatever the
 * polling: it is dropped, and the first poll that makes room queues
 * {"event":"eventsDropped","count":1}. The second read changes nothing and tells nothing. */
static void test_events_dropped(void) {
    char player[64], params[2048];
    snprintf(player, sizeof player, "dropped-player-%d", (int)getpid());
    char *token = player_token(player);
    CHECK(token != NULL, "no token");
    if (token == NULL) return;
    snprintf(params, sizeof params, "{\"playerId\":\"%s\",\"token\":\"%s\"}", player, token);

    make_config("dropped-buyer", "");
    sk_client *client = sk_open(config, NULL);
    CHECK(client != NULL, "open the buyer");
    sk_free(call_and_wait(client, "signIn", params, 10));
    sk_free(call_and_wait(client, "start", NULL, 30));
    char *answer = call_and_wait(client, "purchase", "{\"productId\":\"levelpack1\"}", 60);
    CHECK(answer != NULL && json_has_string(answer, "status", "delivered"), "levelpack1: %s", answer ? answer : "NULL");
    sk_free(answer);
    sk_close(client);

    make_config("dropped", ",\"eventQueueCapacity\":2");
    client = sk_open(config, NULL);
    CHECK(client != NULL, "open");
    sk_free(call_and_wait(client, "signIn", params, 10));
    sk_free(call_and_wait(client, "start", NULL, 30));
    int64_t first = sk_call(client, "entitlements", "{\"refresh\":true}");
    int64_t second = sk_call(client, "entitlements", "{\"refresh\":true}");
    CHECK(first > 0 && second > 0, "calls %lld %lld", (long long)first, (long long)second);
    CHECK(sk_call(client, "pendingDeliveries", NULL) == SK_CALL_QUEUE_FULL, "a third call finds the queue full");
    int answers = 0, notices = 0, others = 0;
    double deadline = now_seconds() + 60;
    while ((answers < 2 || notices < 1) && now_seconds() < deadline) {
        char *event = sk_wait(client, 200);
        if (event == NULL) continue;
        long long id = json_integer(event, "id", 0);
        if (id == first || id == second) {
            answers++;
            CHECK(strstr(event, "\"entitledIds\":[\"levelpack1\"]") != NULL, "entitlements: %s", event);
        } else if (strcmp(event, "{\"event\":\"eventsDropped\",\"count\":1}") == 0) {
            notices++;
        } else {
            others++;
            printf("  event: %s\n", event);
        }
        sk_free(event);
    }
    CHECK(answers == 2 && notices == 1 && others == 0, "%d answers, %d eventsDropped notices, %d others", answers,
          notices, others);
    /* Nothing more: the dropped event is not told late, and room is back. */
    char *late = sk_poll(client);
    CHECK(late == NULL, "after the notice: %s", late ? late : "NULL");
    sk_free(late);
    answer = call_and_wait(client, "entitlements", "{\"refresh\":true}", 30);
    CHECK(answer != NULL && strstr(answer, "\"entitledIds\":[\"levelpack1\"]") != NULL, "entitlements again: %s",
          answer ? answer : "NULL");
    sk_free(answer);
    sk_close(client);
    free(token);
}

enum { THREADS = 4, CALLS_PER_THREAD = 50 };

static void *call_many(void *client) {
    for (int i = 0; i < CALLS_PER_THREAD; i++) {
        int64_t id;
        while ((id = sk_call(client, i % 2 ? "pendingDeliveries" : "fly", "{}")) == SK_CALL_QUEUE_FULL) usleep(1000);
        if (id <= 0) return (void *)1;
    }
    return NULL;
}

static void test_threads(void) {
    make_config("threads", ",\"eventQueueCapacity\":16");
    sk_client *client = sk_open(config, NULL);
    CHECK(client != NULL, "open");
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, call_many, client);
    static char seen[THREADS * CALLS_PER_THREAD + 1];
    int answers = 0;
    double deadline = now_seconds() + 60;
    while (answers < THREADS * CALLS_PER_THREAD && now_seconds() < deadline) {
        char *event = sk_wait(client, 100);
        if (event == NULL) continue;
        long long id = json_integer(event, "id", 0);
        CHECK(id > 0 && id <= THREADS * CALLS_PER_THREAD && !seen[id], "answer %s", event);
        if (id > 0 && id <= THREADS * CALLS_PER_THREAD) seen[id] = 1;
        answers++;
        sk_free(event);
    }
    for (int i = 0; i < THREADS; i++) {
        void *result;
        pthread_join(threads[i], &result);
        CHECK(result == NULL, "thread %d could not call", i);
    }
    CHECK(answers == THREADS * CALLS_PER_THREAD, "%d answers of %d", answers, THREADS * CALLS_PER_THREAD);
    sk_close(client);
}

/* "store": "play_emulator" opens a client on the emulator's Google Play side, which sells
 * the emulator's catalog. */
static void test_play_store(void) {
    snprintf(config, sizeof config,
             "{\"serverURL\":\"%s\",\"dataDirectory\":\"%s/play\",\"store\":\"play_emulator\","
             "\"emulatorURL\":\"%s\",\"deviceId\":\"play-%d\"}",
             require_env("SK_SERVER_URL"), require_env("SK_WORK_DIR"), require_env("SK_SERVER_URL"), (int)getpid());
    char *error = NULL;
    sk_client *client = sk_open(config, &error);
    CHECK(client != NULL, "open play_emulator: %s", error ? error : "");
    sk_free(error);
    if (client == NULL) return;
    char *answer = call_and_wait(client, "products", "{\"productIds\":[\"coins100\",\"no.such.product\"]}", 30);
    CHECK(answer != NULL && json_has_string(answer, "productId", "coins100") &&
              strstr(answer, "no.such.product") == NULL,
          "play products: %s", answer ? answer : "NULL");
    sk_free(answer);
    sk_close(client);
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    test_version();
    test_bad_configs();
    test_null_and_closed_clients();
    test_close_wakes_waiters();
    test_play_store();

    make_config("main", "");
    char *error = NULL;
    sk_client *client = sk_open(config, &error);
    CHECK(client != NULL, "open: %s", error ? error : "");
    sk_free(error);
    if (client != NULL) {
        test_bad_calls(client);
        test_purchase(client);
        sk_close(client);
    }
    test_ask_to_buy();
    test_queue_bound();
    test_events_dropped();
    test_threads();

    if (sk_test_failures > 0) {
        fprintf(stderr, "abi_test: %d failure(s)\n", sk_test_failures);
        return 1;
    }
    printf("abi_test: all passed\n");
    return 0;
}

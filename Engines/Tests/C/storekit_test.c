/* The C ABI with `store` "storekit2" or "storekit1" (argv[1]): the SDK's StoreKit adapters
 * over StoreKit for Linux, pointed at `serve --dev`'s emulator by the environment
 * (STOREKEEPER_STOREKIT_URL, STOREKEEPER_STOREKIT_DEVICE, STOREKEEPER_STOREKIT_DATA).
 * A missing variable is refused by name; then sign in, list products, buy coins and a
 * level pack (`delivered`, naming transaction and order, the server's wallet), see one
 * `entitlementsChanged` event; then a restart on the same data directory delivers nothing
 * twice, and a promoted purchase comes as a `purchase` event. Run by Scripts/engines/run.py (suite storekit), which also sets SK_SERVER_URL,
 * SK_WORK_DIR and STOREKEEPER_BINARY. The main thread polls, as a game's loop does: StoreKit 1
 * tells its observers on the main queue, which sk_wait serves there. */
#include <unistd.h>

#include "test_support.h"

static const char *store;
static char config[4096];
static char player[128];
static char sign_in_params[4096];

static int purchase_events = 0;
static char last_purchase_event[16384];
static int entitlement_events = 0;
static char last_entitlement_event[16384];

/* Counts the unsolicited events and keeps the last `entitlementsChanged`. */
static void count_events(char *event) {
    if (strncmp(event, "{\"event\":\"purchase\",", 20) == 0) {
        purchase_events++;
        snprintf(last_purchase_event, sizeof last_purchase_event, "%s", event);
    }
    if (strncmp(event, "{\"entitlements\":", 16) == 0 && strstr(event, "\"event\":\"entitlementsChanged\"") != NULL) {
        entitlement_events++;
        snprintf(last_entitlement_event, sizeof last_entitlement_event, "%s", event);
    }
    printf("  event: %s\n", event);
    sk_free(event);
}

static char *call(sk_client *client, const char *method, const char *params, double seconds) {
    int64_t id = sk_call(client, method, params);
    CHECK(id > 0, "sk_call(%s) answered %lld", method, (long long)id);
    return id > 0 ? await_answer(client, id, seconds, count_events) : NULL;
}

/* Opening without one of the variables answers store_unavailable naming it. */
static void test_missing_variable(void) {
    const char *name = "STOREKEEPER_STOREKIT_DEVICE";
    char *saved = strdup(require_env(name));
    unsetenv(name);
    char *error = NULL;
    sk_client *client = sk_open(config, &error);
    CHECK(client == NULL && json_has_string(error, "code", "store_unavailable") && strstr(error, name) != NULL,
          "open without %s: %s", name, error ? error : "opened");
    if (client != NULL) sk_close(client);
    sk_free(error);
    setenv(name, saved, 1);
    free(saved);
}

/* Buys `product`; returns the answer (free it with sk_free) after checking it was delivered
 * and names its transaction and order. */
static char *buy(sk_client *client, const char *product) {
    char params[256];
    snprintf(params, sizeof params, "{\"productId\":\"%s\"}", product);
    char *answer = call(client, "purchase", params, 120);
    CHECK(answer != NULL && json_has_string(answer, "status", "delivered"), "purchase %s: %s", product,
          answer ? answer : "NULL");
    char *transaction = json_string(answer, "transactionId");
    char *order = json_string(answer, "orderId");
    CHECK(transaction != NULL && order != NULL && json_has_string(answer, "productId", product),
          "the purchase of %s names its transaction and order: %s", product, answer ? answer : "NULL");
    free(transaction);
    free(order);
    return answer;
}

static void first_launch(const char *token) {
    sk_client *client = sk_open(config, NULL);
    CHECK(client != NULL, "open");
    if (client == NULL) return;
    char *answer = call(client, "signIn", sign_in_params, 10);
    CHECK(answer != NULL && json_has_string(answer, "playerId", player), "signIn: %s", answer ? answer : "NULL");
    sk_free(answer);
    answer = call(client, "start", NULL, 30);
    CHECK(answer != NULL && strstr(answer, "\"journalRecords\":0") != NULL, "start: %s", answer ? answer : "NULL");
    sk_free(answer);

    answer = call(client, "products", "{\"productIds\":[\"coins100\",\"levelpack1\",\"no.such.product\"]}", 30);
    CHECK(answer != NULL && json_has_string(answer, "productId", "coins100") &&
              json_has_string(answer, "productId", "levelpack1") && strstr(answer, "\"priceMilliunits\":990") &&
              strstr(answer, "no.such.product") == NULL,
          "products through StoreKit: %s", answer ? answer : "NULL");
    sk_free(answer);

    /* No entitlement yet: reading them tells no change. */
    answer = call(client, "entitlements", "{\"refresh\":true}", 30);
    CHECK(answer != NULL && strstr(answer, "\"entitledIds\":[]") != NULL && strstr(answer, "\"isCached\":false"),
          "entitlements before: %s", answer ? answer : "NULL");
    sk_free(answer);
    CHECK(entitlement_events == 0, "entitlementsChanged with nothing changed: %s", last_entitlement_event);

    answer = buy(client, "coins100");
    CHECK(answer != NULL && strstr(answer, "\"balances\":{\"coins\":100}") != NULL, "coins delivered: %s",
          answer ? answer : "NULL");
    sk_free(answer);

    answer = buy(client, "levelpack1");
    sk_free(answer);
    /* The delivery's refresh tells the level pack, once. */
    double deadline = now_seconds() + 60;
    while (entitlement_events == 0 && now_seconds() < deadline) {
        char *event = sk_wait(client, 200);
        if (event != NULL) count_events(event);
    }
    CHECK(entitlement_events == 1 && json_has_string(last_entitlement_event, "playerId", player) &&
              strstr(last_entitlement_event, "\"entitledIds\":[\"levelpack1\"]") != NULL &&
              json_has_string(last_entitlement_event, "entitlementId", "levelpack1") &&
              strstr(last_entitlement_event, "\"isCached\":false") != NULL,
          "one entitlementsChanged naming levelpack1 (%d): %s", entitlement_events, last_entitlement_event);

    /* Reading them again changes nothing: no second event (it would come before the answer). */
    answer = call(client, "entitlements", "{\"refresh\":true}", 30);
    CHECK(answer != NULL && strstr(answer, "\"entitledIds\":[\"levelpack1\"]") != NULL, "entitlements after: %s",
          answer ? answer : "NULL");
    sk_free(answer);
    CHECK(entitlement_events == 1, "entitlementsChanged without a change (%d)", entitlement_events);
    CHECK(purchase_events == 0, "purchases answered by their calls came again as events (%d)", purchase_events);

    char *wallet = server_get("/v1/players/me/wallet", token);
    CHECK(wallet != NULL && strstr(wallet, "\"coins\":100") != NULL, "the server's wallet: %s",
          wallet ? wallet : "NULL");
    free(wallet);
    answer = call(client, "pendingDeliveries", NULL, 10);
    CHECK(answer != NULL && strstr(answer, "\"purchases\":[]") != NULL, "pendingDeliveries: %s",
          answer ? answer : "NULL");
    sk_free(answer);
    sk_close(client);
}

/* The same data directory and device again: the journal holds both orders settled; nothing
 * is pending or delivered again; restore and a refresh tell no entitlement change; a new
 * purchase still works and the wallet shows each coin purchase once. */
static void second_launch(const char *token) {
    purchase_events = 0;
    entitlement_events = 0;
    sk_client *client = sk_open(config, NULL);
    CHECK(client != NULL, "reopen");
    if (client == NULL) return;
    sk_free(call(client, "signIn", sign_in_params, 10));
    char *answer = call(client, "start", NULL, 30);
    CHECK(answer != NULL && strstr(answer, "\"journalRecords\":2") != NULL &&
              strstr(answer, "\"pendingDeliveries\":0") != NULL,
          "start again: %s", answer ? answer : "NULL");
    sk_free(answer);
    answer = call(client, "pendingDeliveries", NULL, 10);
    CHECK(answer != NULL && strstr(answer, "\"purchases\":[]") != NULL, "pendingDeliveries again: %s",
          answer ? answer : "NULL");
    sk_free(answer);

    answer = call(client, "restore", NULL, 60);
    CHECK(answer != NULL && json_has_string(answer, "productId", "levelpack1") &&
              strstr(answer, "\"entitledIds\":[\"levelpack1\"]") != NULL,
          "restore: %s", answer ? answer : "NULL");
    sk_free(answer);
    answer = call(client, "entitlements", "{\"refresh\":true}", 30);
    CHECK(answer != NULL && strstr(answer, "\"entitledIds\":[\"levelpack1\"]") != NULL, "entitlements: %s",
          answer ? answer : "NULL");
    sk_free(answer);
    CHECK(entitlement_events == 0, "entitlementsChanged after a restart that changed nothing: %s",
          last_entitlement_event);

    answer = buy(client, "coins100");
    CHECK(answer != NULL && strstr(answer, "\"balances\":{\"coins\":200}") != NULL,
          "the first coins were delivered once: %s", answer ? answer : "NULL");
    sk_free(answer);
    CHECK(purchase_events == 0, "the restart delivered %d purchase(s) again: %s", purchase_events,
          last_purchase_event);
    char *wallet = server_get("/v1/players/me/wallet", token);
    CHECK(wallet != NULL && strstr(wallet, "\"coins\":200") != NULL, "the server's wallet: %s",
          wallet ? wallet : "NULL");
    free(wallet);

    /* A promoted purchase (chosen on the App Store page): StoreKit hands it to the running
     * client, which buys it for the signed-in player and tells it as a `purchase` event. */
    char path[512];
    snprintf(path, sizeof path, "/emulator/v1/devices/%s/promotions", require_env("STOREKEEPER_STOREKIT_DEVICE"));
    char *promotion = server_request("POST", path, "{\"productId\":\"coins500\"}", NULL);
    CHECK(promotion != NULL && json_has_string(promotion, "productId", "coins500"), "promotion: %s",
          promotion ? promotion : "NULL");
    free(promotion);
    double deadline = now_seconds() + 60;
    while (purchase_events == 0 && now_seconds() < deadline) {
        char *event = sk_wait(client, 200);
        if (event != NULL) count_events(event);
    }
    CHECK(purchase_events == 1 && json_has_string(last_purchase_event, "status", "delivered") &&
              json_has_string(last_purchase_event, "origin", "promoted") &&
              json_has_string(last_purchase_event, "productId", "coins500") &&
              json_has_string(last_purchase_event, "playerId", player) &&
              strstr(last_purchase_event, "\"balances\":{\"coins\":700}") != NULL,
          "one purchase event for the promoted coins500 (%d): %s", purchase_events, last_purchase_event);
    sk_close(client);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc != 2 || (strcmp(argv[1], "storekit2") != 0 && strcmp(argv[1], "storekit1") != 0)) {
        fprintf(stderr, "usage: storekit_test storekit2|storekit1\n");
        return 2;
    }
    store = argv[1];
    snprintf(config, sizeof config, "{\"serverURL\":\"%s\",\"dataDirectory\":\"%s/%s\",\"store\":\"%s\"}",
             require_env("SK_SERVER_URL"), require_env("SK_WORK_DIR"), store, store);
    require_env("STOREKEEPER_STOREKIT_URL");
    require_env("STOREKEEPER_STOREKIT_DATA");
    test_missing_variable();

    snprintf(player, sizeof player, "%s-player-%d", store, (int)getpid());
    char *token = player_token(player);
    CHECK(token != NULL, "no token from storekeeper token");
    if (token == NULL) return 1;
    snprintf(sign_in_params, sizeof sign_in_params, "{\"playerId\":\"%s\",\"token\":\"%s\"}", player, token);
    first_launch(token);
    second_launch(token);
    free(token);

    if (sk_test_failures > 0) {
        fprintf(stderr, "storekit_test %s: %d failure(s)\n", store, sk_test_failures);
        return 1;
    }
    printf("storekit_test %s: all passed\n", store);
    return 0;
}

/* A console "game" in C on libStoreKeeperSDK: signs in, lists the coin packs, buys one and
 * shows the wallet the server answered. Against `storekeeper serve --dev`:
 *
 *   swift build --package-path SDK --product StoreKeeperSDK
 *   gcc -I SDK/Sources/StoreKeeperSDK/include Examples/CConsoleGame/game.c \
 *       -L SDK/.build/debug -lStoreKeeperSDK -Wl,-rpath,SDK/.build/debug -o game
 *   ./game http://127.0.0.1:8080 alice "$(storekeeper token --player alice)"
 *
 * A real game calls sk_poll once a frame instead of blocking in sk_wait. */
#include <stdio.h>
#include <string.h>

#include "storekeeper_sdk.h"

/* Waits for the answer of call `id` (printing updates meanwhile); sk_free the result. */
static char *answer(sk_client *client, int64_t id) {
    char prefix[64], suffix[64];
    snprintf(prefix, sizeof prefix, "{\"id\":%lld,", (long long)id);
    snprintf(suffix, sizeof suffix, ",\"id\":%lld}", (long long)id);
    for (int tries = 0; tries < 600; tries++) {
        char *event = sk_wait(client, 100);
        if (event == NULL) continue;
        size_t length = strlen(event);
        if (strncmp(event, prefix, strlen(prefix)) == 0 ||
            (length > strlen(suffix) && strcmp(event + length - strlen(suffix), suffix) == 0))
            return event;
        printf("update: %s\n", event);
        sk_free(event);
    }
    return NULL;
}

static char *call(sk_client *client, const char *method, const char *params) {
    return answer(client, sk_call(client, method, params));
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: game SERVER_URL PLAYER TOKEN\n");
        return 2;
    }
    char config[1024];
    snprintf(config, sizeof config,
             "{\"serverURL\":\"%s\",\"dataDirectory\":\"game-data\",\"store\":\"emulator\",\"emulatorURL\":\"%s\","
             "\"deviceId\":\"console-phone\"}",
             argv[1], argv[1]);
    char *error = NULL;
    sk_client *client = sk_open(config, &error);
    if (client == NULL) {
        fprintf(stderr, "cannot open: %s\n", error);
        sk_free(error);
        return 1;
    }
    printf("StoreKeeper SDK %s\n", sk_version());

    char params[2048];
    snprintf(params, sizeof params, "{\"playerId\":\"%s\",\"token\":\"%s\"}", argv[2], argv[3]);
    const char *steps[][2] = {
        {"signIn", params},
        {"start", NULL},
        {"products", "{\"productIds\":[\"coins100\",\"coins500\"]}"},
        {"purchase", "{\"productId\":\"coins100\"}"},
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        char *result = call(client, steps[i][0], steps[i][1]);
        printf("%s: %s\n", steps[i][0], result ? result : "(no answer)");
        const char *balances = result ? strstr(result, "\"balances\":{") : NULL;
        if (balances != NULL) { /* a flat object: item -> amount */
            balances += strlen("\"balances\":");
            printf("wallet: %.*s\n", (int)(strchr(balances, '}') - balances + 1), balances);
        }
        sk_free(result);
    }
    sk_close(client);
    return 0;
}

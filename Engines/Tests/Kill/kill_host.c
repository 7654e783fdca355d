/* A game host for the kill test (Scripts/engines/kill.py): it links libStoreKeeperSDK and
 * does what a game does, nothing more: sign in, start, buy, and drain events by polling.
 *
 *   kill_host buy      buys coins100 again and again until it is killed
 *   kill_host settle   starts, then polls until the journal holds nothing undelivered;
 *                      exit 0 when settled, 1 when not within SK_SETTLE_SECONDS (120)
 *
 * Environment: SK_SERVER_URL, SK_EMULATOR_URL, SK_DATA_DIR, SK_DEVICE, SK_PLAYER, SK_TOKEN.
 * Every event is printed on its own line, flushed, so the driver sees what happened before
 * the kill. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "storekeeper_sdk.h"

static const char *env(const char *name) {
    const char *value = getenv(name);
    if (value == NULL) {
        fprintf(stderr, "kill_host: %s is not set\n", name);
        exit(2);
    }
    return value;
}

/* Waits for the answer of call `id`, printing every event; returns it (sk_free it). */
static char *answer_of(sk_client *client, int64_t id, double seconds) {
    char prefix[64], suffix[64];
    snprintf(prefix, sizeof prefix, "{\"id\":%lld,", (long long)id);
    snprintf(suffix, sizeof suffix, ",\"id\":%lld}", (long long)id);
    time_t deadline = time(NULL) + (time_t)seconds;
    while (time(NULL) < deadline) {
        char *event = sk_wait(client, 200);
        if (event == NULL) continue;
        printf("%s\n", event);
        fflush(stdout);
        size_t length = strlen(event);
        if (strncmp(event, prefix, strlen(prefix)) == 0 ||
            (length > strlen(suffix) && strcmp(event + length - strlen(suffix), suffix) == 0))
            return event;
        sk_free(event);
    }
    return NULL;
}

static char *call(sk_client *client, const char *method, const char *params, double seconds) {
    int64_t id = sk_call(client, method, params);
    if (id <= 0) {
        fprintf(stderr, "kill_host: sk_call(%s) = %lld\n", method, (long long)id);
        exit(1);
    }
    return answer_of(client, id, seconds);
}

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "buy") != 0 && strcmp(argv[1], "settle") != 0)) {
        fprintf(stderr, "usage: kill_host buy|settle\n");
        return 2;
    }
    char config[4096];
    snprintf(config, sizeof config,
             "{\"serverURL\":\"%s\",\"emulatorURL\":\"%s\",\"dataDirectory\":\"%s\",\"store\":\"emulator\","
             "\"deviceId\":\"%s\",\"retryInitialMilliseconds\":100,\"retryMaximumMilliseconds\":1000}",
             env("SK_SERVER_URL"), env("SK_EMULATOR_URL"), env("SK_DATA_DIR"), env("SK_DEVICE"));
    char *error = NULL;
    sk_client *client = sk_open(config, &error);
    if (client == NULL) {
        fprintf(stderr, "kill_host: sk_open: %s\n", error ? error : "?");
        return 1;
    }
    char params[2048];
    snprintf(params, sizeof params, "{\"playerId\":\"%s\",\"token\":\"%s\"}", env("SK_PLAYER"), env("SK_TOKEN"));
    sk_free(call(client, "signIn", params, 30));
    char *started = call(client, "start", NULL, 60);
    if (started == NULL || strstr(started, "\"result\"") == NULL) {
        fprintf(stderr, "kill_host: start failed\n");
        return 1;
    }
    sk_free(started);

    if (strcmp(argv[1], "buy") == 0) {
        for (;;) sk_free(call(client, "purchase", "{\"productId\":\"coins100\"}", 600));
    }

    const char *limit = getenv("SK_SETTLE_SECONDS");
    time_t deadline = time(NULL) + (limit ? atoi(limit) : 120);
    while (time(NULL) < deadline) {
        char *pending = call(client, "pendingDeliveries", NULL, 30);
        int settled = pending != NULL && strstr(pending, "\"purchases\":[]") != NULL;
        sk_free(pending);
        if (settled) {
            printf("settled\n");
            sk_close(client);
            return 0;
        }
        /* Only polling, as a game's frames do, while the pipeline retries. */
        for (int frame = 0; frame < 10; frame++) {
            char *event = sk_wait(client, 50);
            if (event != NULL) {
                printf("%s\n", event);
                fflush(stdout);
                sk_free(event);
            }
        }
    }
    printf("not settled\n");
    sk_close(client);
    return 1;
}

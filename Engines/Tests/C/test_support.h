/* Helpers of the C tests of libStoreKeeperSDK: assertions, the environment the runner
 * (Scripts/engines/run.py) sets, crude JSON lookups and waiting for a call's answer. Inline,
 * so that a test may use only some of them. */
#ifndef STOREKEEPER_TEST_SUPPORT_H
#define STOREKEEPER_TEST_SUPPORT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "storekeeper_sdk.h"

static int sk_test_failures = 0;

#define CHECK(condition, ...)                                                         \
    do {                                                                              \
        if (!(condition)) {                                                           \
            sk_test_failures++;                                                       \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #condition);      \
            fprintf(stderr, __VA_ARGS__);                                             \
            fprintf(stderr, "\n");                                                    \
        }                                                                             \
    } while (0)

/* An environment variable the runner must set. */
static inline const char *require_env(const char *name) {
    const char *value = getenv(name);
    if (value == NULL || value[0] == '\0') {
        fprintf(stderr, "environment variable %s is not set (run Scripts/engines/run.py)\n", name);
        exit(2);
    }
    return value;
}

static inline double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether `json` holds `"key":"value"` (the library writes no spaces). */
static inline int json_has_string(const char *json, const char *key, const char *value) {
    char needle[512];
    snprintf(needle, sizeof needle, "\"%s\":\"%s\"", key, value);
    return json != NULL && strstr(json, needle) != NULL;
}

/* The integer after the first `"key":` in `json` at or after `from`, or `fallback`. */
static inline long long json_integer(const char *json, const char *key, long long fallback) {
    char needle[256];
    snprintf(needle, sizeof needle, "\"%s\":", key);
    const char *at = json == NULL ? NULL : strstr(json, needle);
    if (at == NULL) return fallback;
    return strtoll(at + strlen(needle), NULL, 10);
}

/* A copy of the string value of the first `"key":"…"` in `json` (free it), or NULL. */
static inline char *json_string(const char *json, const char *key) {
    char needle[256];
    snprintf(needle, sizeof needle, "\"%s\":\"", key);
    const char *at = json == NULL ? NULL : strstr(json, needle);
    if (at == NULL) return NULL;
    at += strlen(needle);
    const char *end = strchr(at, '"');
    if (end == NULL) return NULL;
    char *copy = malloc((size_t)(end - at) + 1);
    memcpy(copy, at, (size_t)(end - at));
    copy[end - at] = '\0';
    return copy;
}

/* Waits up to `seconds` for the answer of call `id`; other events are handed to
 * `on_other` (may be NULL: they are printed and freed). Returns the answer (free it with
 * sk_free) or NULL on timeout. */
static inline char *await_answer(sk_client *client, int64_t id, double seconds, void (*on_other)(char *event)) {
    /* Keys are sorted: an answer is {"id":N,"result":…}, an error {"error":…,"id":N}. */
    char prefix[64], suffix[64];
    snprintf(prefix, sizeof prefix, "{\"id\":%lld,", (long long)id);
    snprintf(suffix, sizeof suffix, ",\"id\":%lld}", (long long)id);
    double deadline = now_seconds() + seconds;
    while (now_seconds() < deadline) {
        char *event = sk_wait(client, 200);
        if (event == NULL) continue;
        size_t length = strlen(event);
        if (strncmp(event, prefix, strlen(prefix)) == 0) return event;
        if (strncmp(event, "{\"error\":", 9) == 0 && length >= strlen(suffix) &&
            strcmp(event + length - strlen(suffix), suffix) == 0)
            return event;
        if (on_other != NULL) {
            on_other(event);
        } else {
            printf("  event: %s\n", event);
            sk_free(event);
        }
    }
    return NULL;
}

/* Calls `method` and waits for its answer (free it with sk_free), or NULL. */
static inline char *call_and_wait(sk_client *client, const char *method, const char *params, double seconds) {
    int64_t id = sk_call(client, method, params);
    if (id <= 0) {
        fprintf(stderr, "sk_call(%s) answered %lld\n", method, (long long)id);
        return NULL;
    }
    return await_answer(client, id, seconds, NULL);
}

/* A player token from `storekeeper token` (free it). */
static inline char *player_token(const char *player) {
    char command[1024];
    snprintf(command, sizeof command, "'%s' token --player '%s' --lifetime 86400", require_env("STOREKEEPER_BINARY"),
             player);
    FILE *pipe = popen(command, "r");
    if (pipe == NULL) return NULL;
    char buffer[2048] = {0};
    size_t length = fread(buffer, 1, sizeof buffer - 1, pipe);
    pclose(pipe);
    while (length > 0 && (buffer[length - 1] == '\n' || buffer[length - 1] == '\r')) buffer[--length] = '\0';
    return length == 0 ? NULL : strdup(buffer);
}

/* `method` `path` of the server with `data` (NULL: none) and `token` (NULL: none), through
 * curl; the answer's body (free it). */
static inline char *server_request(const char *method, const char *path, const char *data, const char *token) {
    char command[4096];
    snprintf(command, sizeof command, "curl -s --max-time 10 -X %s '%s%s' %s%s%s %s%s%s", method,
             require_env("SK_SERVER_URL"), path, token ? "-H 'Authorization: Bearer " : "", token ? token : "",
             token ? "'" : "", data ? "-d '" : "", data ? data : "", data ? "'" : "");
    FILE *pipe = popen(command, "r");
    if (pipe == NULL) return NULL;
    size_t capacity = 1 << 16, length = 0;
    char *body = malloc(capacity);
    size_t read;
    while ((read = fread(body + length, 1, capacity - length - 1, pipe)) > 0) {
        length += read;
        if (capacity - length < 2) body = realloc(body, capacity *= 2);
    }
    body[length] = '\0';
    pclose(pipe);
    return body;
}

/* GET `path` of the server with `token` (NULL: none); the body (free it). */
static inline char *server_get(const char *path, const char *token) { return server_request("GET", path, NULL, token); }

#endif

/* libFuzzer target: sk_call of libStoreKeeperSDK with arbitrary method and params bytes.
 *
 * The input is split at its first NUL byte: the bytes before are the method, the bytes after
 * the params (each passed NUL-terminated, so any bytes but NUL reach the library: invalid
 * UTF-8, broken JSON, deep nesting, huge numbers). No NUL: the whole input is the method and
 * params is NULL. One client lives for the whole run, on the emulator store, with its server
 * and emulator at a closed port: calls that go to the network fail fast, so a "start" or a
 * "purchase" the fuzzer finds runs the pipeline's real error paths.
 *
 * Properties: nothing crashes (AddressSanitizer watches the library, built instrumented by
 * Fuzz/ABI/run.sh); sk_call answers an id > 0 for a live client; that call's answer arrives
 * (within 10 s) as one JSON object naming the id, with either a result or an error code. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storekeeper_sdk.h"

static sk_client *client;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    char directory[] = "/tmp/storekeeper-fuzz-abi-XXXXXX";
    if (mkdtemp(directory) == NULL) abort();
    char config[1024];
    snprintf(config, sizeof config,
             "{\"serverURL\":\"http://127.0.0.1:9\",\"emulatorURL\":\"http://127.0.0.1:9\",\"dataDirectory\":\"%s\","
             "\"store\":\"emulator\",\"deviceId\":\"fuzz\",\"retryInitialMilliseconds\":1,"
             "\"retryMaximumMilliseconds\":2,\"eventQueueCapacity\":64}",
             directory);
    char *error = NULL;
    client = sk_open(config, &error);
    if (client == NULL) {
        fprintf(stderr, "sk_open: %s\n", error ? error : "?");
        abort();
    }
    return 0;
}

static char *copy(const uint8_t *bytes, size_t length) {
    char *text = malloc(length + 1);
    memcpy(text, bytes, length);
    text[length] = '\0';
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *nul = memchr(data, 0, size);
    char *method = copy(data, nul ? (size_t)(nul - data) : size);
    char *params = nul ? copy(nul + 1, size - (size_t)(nul - data) - 1) : NULL;

    int64_t id = sk_call(client, method, params);
    if (id <= 0) {
        fprintf(stderr, "sk_call answered %lld for a live client\n", (long long)id);
        abort();
    }
    char prefix[64], suffix[64];
    snprintf(prefix, sizeof prefix, "{\"id\":%lld,\"result\":", (long long)id);
    snprintf(suffix, sizeof suffix, "},\"id\":%lld}", (long long)id);
    int answered = 0;
    for (int waited = 0; waited < 100 && !answered; waited++) {
        char *event = sk_wait(client, 100);
        while (event != NULL) {
            size_t length = strlen(event);
            if (event[0] != '{' || event[length - 1] != '}') {
                fprintf(stderr, "not a JSON object: %s\n", event);
                abort();
            }
            if (strncmp(event, prefix, strlen(prefix)) == 0) answered = 1;
            if (strncmp(event, "{\"error\":{\"code\":\"", 18) == 0 && length > strlen(suffix) &&
                strcmp(event + length - strlen(suffix), suffix) == 0)
                answered = 1;
            sk_free(event);
            event = answered ? NULL : sk_poll(client);
        }
    }
    if (!answered) {
        fprintf(stderr, "no answer to call %lld (%s) within 10 s\n", (long long)id, method);
        abort();
    }
    free(method);
    free(params);
    return 0;
}

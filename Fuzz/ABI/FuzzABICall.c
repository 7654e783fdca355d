/* libFuzzer target: sk_call of libStoreKeeperSDK with arbitrary method and params bytes.
 *
 * The input is split at its first NUL byte: the bytes before are the method, the bytes after
 * the params (each passed NUL-terminated, so any bytes but NUL reach the library: invalid
 * UTF-8, broken JSON, deep nesting, huge numbers). No NUL: the whole input is the method and
 * params is NULL. One client lives for the whole run, on the emulator store, with its server
 * and emulator at a closed port: calls that go to the network fail fast, so a "start" or a
 * "purchase" the fuzzer finds runs the pipeline's real error paths.
 *
 * The harness loads the library with dlopen in LLVMFuzzerInitialize rather than linking it:
 * a library loaded at start-up runs its coverage constructors before libFuzzer's own
 * initialization, which then forgets them, and the fuzzer would see the harness's coverage
 * only. SK_LIBRARY_PATH (a -D of run.sh) names it.
 *
 * Properties: nothing crashes (AddressSanitizer watches the library, built instrumented by
 * Fuzz/ABI/run.sh); sk_call answers an id > 0 for a live client; that call's answer arrives
 * (within 10 s) as one JSON object naming the id, with either a result or an error code. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storekeeper_sdk.h"

static sk_client *client;
static __typeof__(sk_open) *open_client;
static __typeof__(sk_call) *call;
static __typeof__(sk_poll) *poll_event;
static __typeof__(sk_wait) *wait_event;
static __typeof__(sk_free) *free_event;

static void *symbol(void *library, const char *name) {
    void *address = dlsym(library, name);
    if (address == NULL) {
        fprintf(stderr, "no %s in %s\n", name, SK_LIBRARY_PATH);
        abort();
    }
    return address;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    void *library = dlopen(SK_LIBRARY_PATH, RTLD_NOW | RTLD_GLOBAL);
    if (library == NULL) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        abort();
    }
    open_client = (__typeof__(sk_open) *)symbol(library, "sk_open");
    call = (__typeof__(sk_call) *)symbol(library, "sk_call");
    poll_event = (__typeof__(sk_poll) *)symbol(library, "sk_poll");
    wait_event = (__typeof__(sk_wait) *)symbol(library, "sk_wait");
    free_event = (__typeof__(sk_free) *)symbol(library, "sk_free");
    char directory[] = "/tmp/storekeeper-fuzz-abi-XXXXXX";
    if (mkdtemp(directory) == NULL) abort();
    char config[1024];
    snprintf(config, sizeof config,
             "{\"serverURL\":\"http://127.0.0.1:9\",\"emulatorURL\":\"http://127.0.0.1:9\",\"dataDirectory\":\"%s\","
             "\"store\":\"emulator\",\"deviceId\":\"fuzz\",\"retryInitialMilliseconds\":1,"
             "\"retryMaximumMilliseconds\":2,\"eventQueueCapacity\":64}",
             directory);
    char *error = NULL;
    client = open_client(config, &error);
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

    int64_t id = call(client, method, params);
    if (id <= 0) {
        fprintf(stderr, "sk_call answered %lld for a live client\n", (long long)id);
        abort();
    }
    char prefix[64], suffix[64];
    snprintf(prefix, sizeof prefix, "{\"id\":%lld,\"result\":", (long long)id);
    snprintf(suffix, sizeof suffix, "},\"id\":%lld}", (long long)id);
    int answered = 0;
    for (int waited = 0; waited < 100 && !answered; waited++) {
        char *event = wait_event(client, 100);
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
            free_event(event);
            event = answered ? NULL : poll_event(client);
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

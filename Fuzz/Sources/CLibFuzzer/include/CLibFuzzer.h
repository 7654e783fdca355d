#ifndef STOREKEEPER_CLIBFUZZER_H
#define STOREKEEPER_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, `-sanitize=fuzzer`): parses libFuzzer's command line
/// and runs `callback` on each input. Available since LLVM 11.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif

// The declarations in include/CLibFuzzer.h are defined by libFuzzer's runtime, which
// `-sanitize=fuzzer` links in. SwiftPM needs one source file in a C target.
#include "CLibFuzzer.h"

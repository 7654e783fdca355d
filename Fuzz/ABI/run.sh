#!/usr/bin/env bash
# The C ABI's libFuzzer target, FuzzABICall.c: sk_call of libStoreKeeperSDK with arbitrary
# method and params bytes. Kept apart from Fuzz/run.sh because it fuzzes the library as a
# game links it: the SDK package's StoreKeeperSDK product built with
# -sanitize=fuzzer,address (coverage and AddressSanitizer in the Swift code), and a C harness
# built with clang's -fsanitize=fuzzer,address that loads it (dlopen) before fuzzing.
#
#   Fuzz/ABI/run.sh                  # 10 s
#   Fuzz/ABI/run.sh --seconds 30     # what CI runs (through Scripts/engines/run.py)
#   Fuzz/ABI/run.sh --build-only     # build the library and the harness, and stop (CI builds
#                                    # them early, at low priority; a later run finds them built)
#
# Leak detection is off (libFuzzer's per input and AddressSanitizer's at exit): a call's
# answer comes before the pipeline's own asynchronous work ends (the event log's flush,
# URLSession's requests to the closed port), which LeakSanitizer would charge to the input;
# every string the ABI hands out is freed by the harness. Exits non-zero on a crash, a hang (-timeout), a call that is never answered or an
# answer that is no JSON object, naming the input kept.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds=10
build_only=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --build-only) build_only=1; shift ;;
        -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

echo "== building libStoreKeeperSDK (release, -sanitize=fuzzer,address)"
swift build --package-path "$root/SDK" --product StoreKeeperSDK --scratch-path "$here/.build" -c release \
    -Xswiftc -sanitize=fuzzer,address 2>&1 | { grep -v -e "^\[" || true; }
library_dir="$here/.build/release"
clang -fsanitize=fuzzer,address -I "$root/SDK/Sources/StoreKeeperSDK/include" "$here/FuzzABICall.c" \
    -DSK_LIBRARY_PATH="\"$library_dir/libStoreKeeperSDK.so\"" -ldl -o "$here/.build/FuzzABICall" 2>&1 |
    { grep -v "Cannot export local symbol" || true; }
if [[ $build_only == 1 ]]; then
    echo "== built FuzzABICall in $SECONDS s"
    exit 0
fi

work="$here/.work/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$work/corpus" "$work/artifacts"
cp "$root/Fuzz/Corpus/FuzzABICall/"* "$work/corpus/"
echo "== running FuzzABICall for $seconds s in $work"
status=0
(cd "$work" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" timeout -s INT $((seconds + 300)) "$here/.build/FuzzABICall" -max_total_time="$seconds" \
    -timeout=30 -rss_limit_mb=2048 -max_len=4096 -detect_leaks=0 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/fuzz.log" 2>&1) || status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
corpus=$(find "$work/corpus" -type f | wc -l)
artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$work/fuzz.log" | tail -1)
if [[ $status != 0 || -n $artifact ]]; then
    echo "FuzzABICall FAILED (exit $status) runs=${runs:-?} corpus=$corpus; log: $work/fuzz.log"
    [[ -n $artifact ]] && echo "   input: $artifact (reproduce: $here/.build/FuzzABICall $artifact)"
    grep -m 8 -E 'Fatal error|ERROR:|SUMMARY:|no answer|not a JSON|answered' "$work/fuzz.log" | sed 's/^/   /' || true
    exit 1
fi
echo "FuzzABICall ok runs=${runs:-?} corpus=$(ls "$root/Fuzz/Corpus/FuzzABICall" | wc -l)→$corpus"

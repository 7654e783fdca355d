#!/usr/bin/env bash
# Builds StoreKeeper's fuzz targets (libFuzzer + AddressSanitizer) and runs each for a while.
#
#   Fuzz/run.sh                     # every target for 10 s
#   Fuzz/run.sh --seconds 30        # what CI runs
#   Fuzz/run.sh --seconds 600 --targets "FuzzCompactJWS FuzzPlayerToken"
#
# Options:
#   --seconds N     how long each target runs (default 10)
#   --timeout N     seconds one input may take before it counts as a hang (default 10)
#   --targets LIST  space-separated targets (default: all six)
#   --work DIR      where working corpora, logs and crash artifacts go
#                   (default Fuzz/.work/<UTC time>; the committed Corpus/ is only read)
#   --debug         build and run the debug configuration (about 10x slower; the default
#                   is release with -enable-testing, which keeps preconditions and
#                   overflow checks and lets the targets `@testable import` the parsers)
#   --no-build      use the binaries already built in Fuzz/.build
#   --build-only    build the targets and stop (CI builds them early, at low priority)
#
# Each target runs on a fresh copy of Corpus/<target>; prints one summary line; and the
# script exits non-zero when any target crashed, hung or ran out of memory, naming the
# input libFuzzer kept (reproduce with `Fuzz/.build/release/<target> <input>`).
set -euo pipefail

fuzz_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
seconds=10
timeout=10
targets="FuzzReceiptContainer FuzzReceiptPayload FuzzCompactJWS FuzzJournalLine FuzzPlayerToken FuzzOCSP"
work=""
build=1
run=1
configuration=release

while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --timeout) timeout="$2"; shift 2 ;;
        --targets) targets="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        --debug) configuration=debug; shift ;;
        --no-build) build=0; shift ;;
        --build-only) run=0; shift ;;
        -h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

# Per target: the largest input (a little above the largest seed or the parser's own limit)
# and the dictionary.
max_len() {
    case "$1" in
        FuzzReceiptContainer) echo 8192 ;;
        FuzzReceiptPayload) echo 4096 ;;
        FuzzCompactJWS) echo 8192 ;;
        FuzzJournalLine) echo 4096 ;;
        FuzzPlayerToken) echo 4200 ;;
        FuzzOCSP) echo 4096 ;;
        *) echo "run.sh: unknown target $1" >&2; exit 2 ;;
    esac
}
dictionary() {
    case "$1" in
        FuzzReceiptContainer | FuzzReceiptPayload) echo receipt.dict ;;
        FuzzCompactJWS) echo jws.dict ;;
        FuzzJournalLine) echo journal.dict ;;
        FuzzPlayerToken) echo token.dict ;;
        FuzzOCSP) echo ocsp.dict ;;
    esac
}
for target in $targets; do max_len "$target" > /dev/null; done

if [[ $build == 1 ]]; then
    echo "== building fuzz targets ($configuration, -sanitize=fuzzer,address)"
    started=$SECONDS
    (
        cd "$fuzz_dir"
        swift build -c "$configuration" --scratch-path "$fuzz_dir/.build" -Xswiftc -enable-testing \
            -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 |
            { grep -v -e "Cannot export local symbol" -e "found 1 file(s) which are unhandled" -e "CMakeLists.txt$" || true; }
        exit "${PIPESTATUS[0]}"
    )
    echo "== built in $((SECONDS - started)) s"
fi
bin_dir="$fuzz_dir/.build/$configuration"
[[ $run == 1 ]] || exit 0

work="${work:-$fuzz_dir/.work/$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$work"
echo "== running each target for ${seconds} s (per-input timeout ${timeout} s) in $work"

failures=0
summaries=()
for target in $targets; do
    dir="$work/$target"
    rm -rf "$dir"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    cp "$fuzz_dir/Corpus/$target/"* "$dir/corpus/"
    seeds=$(find "$dir/corpus" -type f | wc -l)
    log="$dir/fuzz.log"

    status=0
    timeout -s INT $((seconds + 300)) "$bin_dir/$target" \
        -max_total_time="$seconds" \
        -timeout="$timeout" \
        -rss_limit_mb=2048 \
        -malloc_limit_mb=2048 \
        -max_len="$(max_len "$target")" \
        -dict="$fuzz_dir/Dictionaries/$(dictionary "$target")" \
        -use_value_profile=1 \
        -print_final_stats=1 \
        -artifact_prefix="$dir/artifacts/" \
        "$dir/corpus" > "$log" 2>&1 || status=$?

    last=$(grep -E '^#[0-9]+' "$log" | grep 'cov:' | tail -1 || true)
    field() { sed -n "s/.* $1: \([^ ]*\).*/\1/p" <<< "$last"; }
    stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
    runs=$(stat number_of_executed_units)
    runs=${runs:-$(sed -n 's/^#\([0-9]*\).*/\1/p' <<< "$last")}
    corpus=$(find "$dir/corpus" -type f | wc -l)
    artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)

    if [[ $status == 0 && -z $artifact ]]; then
        result=ok
    else
        failures=$((failures + 1))
        if grep -q 'libFuzzer: timeout' "$log"; then result=TIMEOUT
        elif grep -q -e 'libFuzzer: out-of-memory' -e 'malloc(.*) exceeds' "$log"; then result=OUT-OF-MEMORY
        elif grep -q -e 'libFuzzer: deadly signal' -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' "$log"; then result=CRASH
        else result="FAILED(exit $status)"
        fi
    fi
    speed=$(stat average_exec_per_sec)
    rss=$(stat peak_rss_mb)
    cov=$(field cov)
    ft=$(field ft)
    line=$(printf '%-21s %-8s runs=%-9s exec/s=%-6s cov=%-6s ft=%-7s corpus=%s→%s peak_rss=%sMB' \
        "$target" "$result" "${runs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "$seeds" "$corpus" "${rss:-?}")
    echo "$line"
    summaries+=("$line")
    if [[ $result != ok ]]; then
        echo "   log: $log"
        [[ -n $artifact ]] && echo "   input: $artifact (reproduce: $bin_dir/$target $artifact)"
        grep -m 5 -E 'Fatal error|Precondition failed|ERROR:|SUMMARY:' "$log" | sed 's/^/   /' || true
    fi
done

echo "== summary"
printf '%s\n' "${summaries[@]}"
if [[ $failures -gt 0 ]]; then
    echo "== $failures target(s) failed; inputs and logs under $work"
    exit 1
fi

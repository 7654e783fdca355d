#!/usr/bin/env bash
# Reports N prepared purchases to a running `storekeeper serve --dev` with wrk, and prints
# deliveries/s, latency percentiles, the server's CPU time per delivery and the P-256 floor.
#
#   Scripts/perf/wrk-prepared.sh URL N CONNECTIONS THREADS
#   e.g. Scripts/perf/wrk-prepared.sh http://127.0.0.1:8311 4000 32 2
#
# 1. `storekeeper loadtest --prepared N --export-wrk DIR` orders and charges N purchases,
#    untimed, with the emulator's notifications off, and writes their reports to DIR; it also
#    finds the server's pid (the process listening on the URL's loopback port) and times the
#    P-256 floor (one ES256 verification of a JWS-sized signing input, for 1 s).
# 2. wrk with Scripts/perf/wrk-report.lua reports them, each once, over CONNECTIONS connections
#    on THREADS threads. The server's CPU time (user + system, /proc/<pid>/stat) is read right
#    before wrk starts and right after it ends; wrk's own from this shell's children's time.
# 3. The emulator's faults are put back (also when something fails).
#
# Exit status 0 only when every prepared purchase was delivered exactly once: wrk counted N
# 200 answers `delivered` and nothing else (no other answer, no socket error, none unanswered).
#
# Environment: STOREKEEPER (the binary; default .build/release/storekeeper of this checkout),
# SERVER_PID (default: the pid the export found), PREPARE_CONCURRENCY (default 8),
# WRK_DURATION (the longest wrk may run, default 600s; it stops by itself once all is answered),
# KEEP (a folder to keep the export and wrk's output in; default a temporary one, removed).
set -euo pipefail

usage() {
    echo "usage: $0 URL N CONNECTIONS THREADS" >&2
    exit 2
}
[[ $# -eq 4 ]] || usage
url=${1%/}
count=$2
connections=$3
threads=$4
for number in "$count" "$connections" "$threads"; do
    [[ $number =~ ^[1-9][0-9]*$ ]] || usage
done
if ((connections < threads)); then
    echo "$0: CONNECTIONS must be at least THREADS" >&2
    exit 2
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
storekeeper=${STOREKEEPER:-$root/.build/release/storekeeper}
for tool in wrk jq curl getconf; do
    command -v "$tool" >/dev/null || {
        echo "$0: needs $tool (Debian: apt-get install $tool)" >&2
        exit 2
    }
done
[[ -x $storekeeper ]] || {
    echo "$0: no $storekeeper: swift build -c release --product storekeeper, or set STOREKEEPER" >&2
    exit 2
}

if [[ -n ${KEEP:-} ]]; then
    dir=$KEEP
    mkdir -p "$dir"
else
    dir=$(mktemp -d)
fi
exported=""
cleanup() {
    if [[ -n $exported ]] &&
        ! curl -sSf -X PUT -H 'Content-Type: application/json' --data-binary "@$dir/faults-before.json" \
            "$url/emulator/v1/faults" >/dev/null; then
        echo "$0: could not put the emulator's faults back; they are in $dir/faults-before.json" >&2
        return
    fi
    [[ -n ${KEEP:-} ]] || rm -rf "$dir"
}
trap cleanup EXIT

# The sum of fields $2 and $3 (1-based, as proc(5) numbers them) of /proc/$1/stat; empty when
# it cannot be read or they are not numbers. Fields are counted after the process name's last
# ")", since the name (field 2) may hold spaces and parentheses.
stat_ticks() {
    local stat fields
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
    [[ $stat == *")"* ]] || return 0
    read -r -a fields <<<"${stat##*)}"
    local first=${fields[$2 - 3]:-} second=${fields[$3 - 3]:-}
    [[ $first =~ ^[0-9]+$ && $second =~ ^[0-9]+$ ]] || return 0
    echo $((first + second))
}

# $1 / $2 with $3 decimals, or "unknown" when either is empty or $2 is 0.
divide() {
    awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "unknown"; else printf "%.*f\n", d, a / b }'
}

"$storekeeper" loadtest --url "$url" --prepared "$count" --concurrency "${PREPARE_CONCURRENCY:-8}" \
    --export-wrk "$dir" --json >"$dir/export.json"
exported=yes
server_pid=${SERVER_PID:-$(jq -r '.serverPid // empty' "$dir/export.json")}
server_note=$(jq -r '.serverNote' "$dir/export.json")
[[ -z ${SERVER_PID:-} ]] || server_note="SERVER_PID"
floor_us=$(divide "$(jq -r '.floor.p50Microseconds' "$dir/export.json")" 1 1)
ticks_per_second=$(getconf CLK_TCK)

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
server_start=""
[[ -z $server_pid ]] || server_start=$(stat_ticks "$server_pid" 14 15)
# wrk's CPU time: this shell's reaped children's (cutime + cstime, fields 16 and 17).
children_start=$(stat_ticks $$ 16 17)
wrk --threads "$threads" --connections "$connections" --duration "${WRK_DURATION:-600s}" --timeout 30s \
    --latency --script "$root/Scripts/perf/wrk-report.lua" "$url" -- "$dir/purchases.tsv" "$threads" \
    >"$dir/wrk.out"
children_end=$(stat_ticks $$ 16 17)
server_end=""
[[ -z $server_pid ]] || server_end=$(stat_ticks "$server_pid" 14 15)
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
cat "$dir/wrk.out"

result=$(grep '^wrk-report-result ' "$dir/wrk.out" | tail -n 1) || {
    echo "$0: wrk printed no wrk-report-result line" >&2
    exit 1
}
# The value of key $1 in the result line.
value() {
    sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $result"
}
prepared=$(value prepared)
delivered=$(value delivered)
errors=$(value errors)

server_ticks=""
if [[ -n $server_start && -n $server_end ]] && ((server_end >= server_start)); then
    server_ticks=$((server_end - server_start))
fi
wrk_ticks=""
if [[ -n $children_start && -n $children_end ]]; then
    wrk_ticks=$((children_end - children_start))
fi
server_seconds=$(divide "$server_ticks" "$ticks_per_second" 2)
server_us=$(divide "${server_ticks:+$((server_ticks * 1000000))}" "$((delivered * ticks_per_second))" 1)
wrk_us=$(divide "${wrk_ticks:+$((wrk_ticks * 1000000))}" "$((delivered * ticks_per_second))" 1)
ratio="unknown"
[[ $server_us == unknown ]] || ratio=$(divide "$server_us" "$floor_us" 2)

echo
echo "== wrk-prepared: $count purchases, $connections connections, $threads threads, $url"
echo "deliveries: $delivered of $count prepared delivered (already_delivered $(value already_delivered), errors $errors)"
echo "deliveries/s: $(value deliveries_per_second) ($(value seconds) s from the first report sent to the last answer)"
echo "latency ms (wrk): p50 $(value p50_ms), p90 $(value p90_ms), p99 $(value p99_ms), max $(value max_ms)"
if [[ $server_seconds == unknown ]]; then
    echo "server CPU: unknown (${server_pid:+pid $server_pid, }$server_note)"
else
    echo "server CPU: $server_seconds s, $server_us µs per delivery (pid $server_pid, $server_note; user + system, around wrk)"
fi
echo "wrk CPU: $(divide "$wrk_ticks" "$ticks_per_second" 2) s, $wrk_us µs per delivery"
echo "P-256 floor: $floor_us µs per verify (p50, timed by storekeeper after the preparation)"
echo "server CPU per delivery / P-256 floor: $ratio"
echo "load average (1, 5, 15 min): $load_start at the start, $load_end at the end"

if [[ $prepared != "$count" || $delivered != "$count" || $errors != 0 ]]; then
    echo "FAILED: not every prepared purchase was delivered exactly once" >&2
    exit 1
fi
echo "every prepared purchase was delivered exactly once"

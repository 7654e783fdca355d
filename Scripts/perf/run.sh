#!/usr/bin/env bash
# Runs every performance measurement of docs/PERFORMANCE.md in one go and prints one table:
# the floors (a P-256 verify, SQLite's and PostgreSQL's own single-row insert rates) and,
# measured next to them, verification, the server's delivery path on both databases at
# concurrency 32 and 1 (deliveries/s, latency, the server's CPU per delivery and its ratio to
# the P-256 floor, PostgreSQL statements per delivery), the full path, and wrk's lean driver.
#
#   Scripts/perf/run.sh                         # the current build
#   SERVERS="before=/path/to/old now=.build/release/storekeeper" Scripts/perf/run.sh
#
# Environment:
#   STOREKEEPER  the binary that generates load and benchmarks (default: this checkout's
#                .build/release/storekeeper, built first with `swift build -c release`)
#   SERVERS      space-separated label=binary pairs of servers to measure side by side in this
#                run (default: now=$STOREKEEPER); the load generator is always $STOREKEEPER
#   PREPARED     purchases per server-only run at concurrency 32 (default 6000; 1500 at 1)
#   SECONDS_FULL seconds of the full-path run (default 15)
#   OUT          folder for every run's JSON and logs (default: a new temporary folder)
#   LEDGERS      the ledgers of the server-only runs (default "sqlite postgres
#                postgres-statements"; postgres-statements is PostgreSQL with
#                order_delivery=statements, which servers before 2026-11-29 refuse)
# Needs: python3, curl, jq, wrk, and PostgreSQL 15's initdb/pg_ctl/psql/pgbench (Debian:
# apt-get install postgresql wrk jq curl). A throwaway PostgreSQL cluster is started (and
# stopped at the end) with pg_stat_statements, so statements per delivery are counted by the
# database itself. Run it as root or as a user that may run PostgreSQL. Exit status 1 when a
# run had errors (a prepared purchase not delivered exactly once, a full-path error).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
storekeeper=${STOREKEEPER:-$root/.build/release/storekeeper}
prepared=${PREPARED:-6000}
prepared_single=$((prepared / 4))
seconds_full=${SECONDS_FULL:-15}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

for tool in python3 curl jq wrk; do
    command -v "$tool" >/dev/null || {
        echo "$0: needs $tool" >&2
        exit 2
    }
done
if [[ -z ${STOREKEEPER:-} ]]; then
    (cd "$root" && swift build -c release --product storekeeper)
fi
[[ -x $storekeeper ]] || {
    echo "$0: no $storekeeper" >&2
    exit 2
}
servers=${SERVERS:-now=$storekeeper}
ledgers=${LEDGERS:-sqlite postgres postgres-statements}
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[[ -n $pg_bin && -x $pg_bin/initdb ]] || {
    echo "$0: PostgreSQL's initdb not found under /usr/lib/postgresql/*/bin" >&2
    exit 2
}

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
failures=0
failed() {
    log "$*"
    failures=$((failures + 1))
}
as_postgres() {
    if [[ $(id -u) -eq 0 ]]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}

# A throwaway PostgreSQL cluster with pg_stat_statements.
pg_dir=$(mktemp -d)
pg_port=$((56000 + RANDOM % 4000))
chmod 777 "$pg_dir"
as_postgres "'$pg_bin/initdb' -D '$pg_dir/data' -U postgres --auth=trust" >"$out/initdb.log" 2>&1
as_postgres "'$pg_bin/pg_ctl' -D '$pg_dir/data' -l '$pg_dir/server.log' -w start -o \"-p $pg_port -k '$pg_dir' \
    -c max_connections=200 -c shared_preload_libraries=pg_stat_statements -c listen_addresses=127.0.0.1\"" \
    >"$out/pg_ctl.log" 2>&1
# Servers are started in command substitutions (subshells): their pids go to a file.
server_pids=$out/server-pids
: >"$server_pids"
cleanup() {
    while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$server_pids"
    as_postgres "'$pg_bin/pg_ctl' -D '$pg_dir/data' -m fast stop" >/dev/null 2>&1 || true
    rm -rf "$pg_dir"
}
trap cleanup EXIT
psql_run() { "$pg_bin/psql" -X -q -At -h 127.0.0.1 -p "$pg_port" -U postgres "$@"; }
psql_run -d postgres -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"

# --- Floors ------------------------------------------------------------------------------
log "verification benchmarks (storekeeper bench)"
"$storekeeper" bench --seconds 2 --json >"$out/bench.json"

log "SQLite single-row insert ceiling (WAL, synchronous=FULL, one transaction each, 5 s)"
python3 - "$out/sqlite-ceiling.json" <<'PY'
import json, os, sqlite3, sys, tempfile, time
path = os.path.join(tempfile.mkdtemp(), "ceiling.sqlite")
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA synchronous=FULL")
db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v REAL)")
count, start = 0, time.monotonic()
while time.monotonic() - start < 5:
    db.execute("BEGIN IMMEDIATE"); db.execute("INSERT INTO t (v) VALUES (random())"); db.execute("COMMIT")
    count += 1
json.dump({"insertsPerSecond": count / (time.monotonic() - start)}, open(sys.argv[1], "w"))
PY

log "PostgreSQL single-row insert ceiling (pgbench, 10 s at 32 and at 1 client)"
psql_run -d postgres -c "CREATE DATABASE ceiling"
psql_run -d ceiling -c "CREATE TABLE t (id BIGSERIAL PRIMARY KEY, v DOUBLE PRECISION)"
echo "INSERT INTO t (v) VALUES (random());" >"$out/insert.sql"
for clients in 32 1; do
    "$pg_bin/pgbench" -n -h 127.0.0.1 -p "$pg_port" -U postgres -c "$clients" -j 2 -T 10 -f "$out/insert.sql" ceiling \
        >"$out/pgbench-$clients.txt" 2>&1
done
pgbench_tps() { sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$out/pgbench-$1.txt" | head -1; }

# --- The server under load ---------------------------------------------------------------
port=$((20000 + RANDOM % 10000))
start_server() { # label binary database-url -> pid on stdout
    local log_file=$out/server-$1-$port.log
    "$2" serve --dev --port "$port" --database "$3" >"$log_file" 2>&1 &
    local pid=$!
    echo "$pid" >>"$server_pids"
    for _ in $(seq 1 600); do
        curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && {
            echo "$pid"
            return
        }
        sleep 0.2
    done
    echo "$0: the server $2 did not answer /healthz within 120 s; see $log_file" >&2
    exit 1
}
stop_server() {
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
    port=$((port + 1))
}

run_prepared() { # label binary database concurrency count
    local label=$1 binary=$2 database=$3 concurrency=$4 count=$5 name=$1-$3-c$4 url pid db=""
    if [[ $database == postgres* ]]; then
        db=load_$(echo "$label-$database" | tr -c 'a-z0-9\n' '_')_c$concurrency
        psql_run -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
        url="postgres://postgres@127.0.0.1:$pg_port/$db"
        # The same deliveries by order as the Swift operation's statements instead of the
        # PL/pgSQL function: what the function saves, measured in the same run.
        [[ $database == postgres-statements ]] && url="$url?order_delivery=statements"
    else
        url="sqlite:$(mktemp -d)/ledger.sqlite"
    fi
    pid=$(start_server "$label" "$binary" "$url")
    log "$name: $count prepared purchases"
    "$storekeeper" loadtest --url "http://127.0.0.1:$port" --prepared "$count" --concurrency "$concurrency" \
        --server-pid "$pid" --json >"$out/$name.json" 2>"$out/$name.progress" &
    local loadtest=$!
    if [[ -n $db ]]; then
        # The floor is timed for a second before the reports start: reset the counts then.
        while ! grep -q "reporting them" "$out/$name.progress" 2>/dev/null; do
            kill -0 "$loadtest" 2>/dev/null || break
            sleep 0.05
        done
        psql_run -d postgres -c "SELECT pg_stat_statements_reset()" >/dev/null
    fi
    wait "$loadtest" || failed "$name: the load test reported errors (see $out/$name.json)"
    if [[ -n $db ]]; then
        # Statements the server sent (each one round trip: PostgresNIO does not pipeline),
        # without the foreign-key checks PostgreSQL runs by itself at commit.
        psql_run -d postgres -c "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
            WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '$db')
            AND query NOT LIKE '%FOR KEY SHARE OF x%'" >"$out/$name.statements"
        psql_run -d postgres -c "SELECT calls, left(regexp_replace(query, '\s+', ' ', 'g'), 100) FROM pg_stat_statements
            WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '$db') ORDER BY calls DESC LIMIT 10" \
            >"$out/$name.statements-by-query"
    fi
    stop_server "$pid"
}

for entry in $servers; do
    label=${entry%%=*}
    binary=${entry#*=}
    for database in $ledgers; do
        run_prepared "$label" "$binary" "$database" 32 "$prepared"
        run_prepared "$label" "$binary" "$database" 1 "$prepared_single"
    done
    pid=$(start_server "$label" "$binary" "sqlite:$(mktemp -d)/ledger.sqlite")
    log "$label-full: the full path (order, emulator charge, report) for $seconds_full s at concurrency 32"
    "$storekeeper" loadtest --url "http://127.0.0.1:$port" --concurrency 32 --seconds "$seconds_full" \
        --server-pid "$pid" --json >"$out/$label-full.json" 2>/dev/null || failed "$label-full: errors"
    stop_server "$pid"
    pid=$(start_server "$label" "$binary" "sqlite:$(mktemp -d)/ledger.sqlite")
    log "$label-wrk: $prepared prepared purchases reported by wrk (32 connections, 2 threads)"
    STOREKEEPER=$storekeeper SERVER_PID=$pid "$root/Scripts/perf/wrk-prepared.sh" \
        "http://127.0.0.1:$port" "$prepared" 32 2 >"$out/$label-wrk.txt" 2>&1 || failed "$label-wrk: failed"
    stop_server "$pid"
done

# --- The table ---------------------------------------------------------------------------
bench() { jq -r --arg name "$1" '.results[] | select(.name | startswith($name)) | .p50Microseconds' \
    "$out/bench.json" | head -1; }
floor=$(bench "p256-verify (floor)")
printf '\nMachine: %s, %s cores; load average at the end: %s\n' "$(uname -m)" "$(nproc)" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '\n| floor | value |\n|---|---:|\n'
printf '| P-256 verify, p50 | %.1f µs |\n' "$floor"
printf '| SQLite single-row inserts (WAL, synchronous=FULL) | %.0f/s |\n' \
    "$(jq .insertsPerSecond "$out/sqlite-ceiling.json")"
printf '| PostgreSQL single-row inserts, pgbench c=32 / c=1 | %.0f / %.0f TPS |\n' "$(pgbench_tps 32)" "$(pgbench_tps 1)"
printf '\n| verification (one core) | p50 µs | ops/s | vs. floor (p50) |\n|---|---:|---:|---:|\n'
jq -r '.results[] | "| \(.name) | \(.p50Microseconds * 10 | round / 10) | \(.operationsPerSecond | round) | \(.p50VersusFloor // 0 | . * 100 | round / 100) |"' \
    "$out/bench.json"
jq -r '.comparisons | "\nApple JWS warm: \(.appleJWSWarmVersusAppleLibrary * 10 | round / 10)x Apple library reference (240/s); production receipts: \(.productionReceiptOperationsPerSecond | round)/s"' \
    "$out/bench.json"

printf '\n| server | ledger | c | deliveries/s | p50 ms | p99 ms | server CPU µs/delivery | / P-256 floor | PG round trips/delivery | load generator CPU µs/delivery | load avg | errors |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for entry in $servers; do
    label=${entry%%=*}
    for database in $ledgers; do
        for concurrency in 32 1; do
            name=$label-$database-c$concurrency
            [[ -s $out/$name.json ]] || continue
            statements=-
            if [[ -s $out/$name.statements ]]; then
                statements=$(awk -v s="$(cat "$out/$name.statements")" -v d="$(jq .delivered "$out/$name.json")" \
                    'BEGIN { if (d > 0) printf "%.2f", s / d; else print "-" }')
            fi
            jq -r --arg srv "$label" --arg db "$database" --arg c "$concurrency" --arg st "$statements" \
                --argjson floor "$floor" '"| \($srv) | \($db) | \($c) | \(.deliveriesPerSecond | round) | \(.latencyMilliseconds.report.p50 * 10 | round / 10) | \(.latencyMilliseconds.report.p99 * 10 | round / 10) | \(.cpu.serverMicrosecondsPerDelivery // 0 | round) | \((.cpu.serverMicrosecondsPerDelivery // 0) / $floor * 100 | round / 100) | \($st) | \(.cpu.loadGeneratorMicrosecondsPerDelivery // 0 | round) | \(.cpu.loadAverageStart.oneMinute // 0) | \(.errors) |"' \
                "$out/$name.json"
        done
    done
done
printf '\n| server | full path, c=32 | deliveries/s | path p50 ms | path p99 ms | server CPU µs/delivery | errors |\n|---|---|---:|---:|---:|---:|---:|\n'
for entry in $servers; do
    label=${entry%%=*}
    [[ -s $out/$label-full.json ]] || continue
    jq -r --arg srv "$label" '"| \($srv) | SQLite | \(.deliveriesPerSecond | round) | \(.latencyMilliseconds.path.p50 // 0 | . * 10 | round / 10) | \(.latencyMilliseconds.path.p99 // 0 | . * 10 | round / 10) | \(.cpu.serverMicrosecondsPerDelivery // 0 | round) | \(.errors) |"' \
        "$out/$label-full.json"
done
for entry in $servers; do
    label=${entry%%=*}
    printf '\nwrk, %s (SQLite, 32 connections):\n' "$label"
    grep -E '^(deliveries|latency|server CPU|wrk CPU|every|FAILED)' "$out/$label-wrk.txt" || true
done
printf '\nEvery run'"'"'s JSON and logs: %s\n' "$out"
if ((failures > 0)); then
    echo "$failures run(s) failed: a delivery was lost, repeated or refused, or a run did not complete" >&2
    exit 1
fi

#!/usr/bin/env python3
"""Each migration's time on a filled ledger (docs/PERFORMANCE.md, "Years of history").

A migration that runs on a ledger with years in it is the one a team meets when it upgrades.
For each version given, this script undoes that one migration on the ledger (drops what it
made and forgets its version), runs `storekeeper staff list`, which migrates at its start and
so applies that migration alone, and reports:
  - its time (the `staff list` run, less the same run with nothing to migrate);
  - the longest a write waited meanwhile: a probe takes the write lock of every table over
    and over while the migration runs (SQLite: `BEGIN IMMEDIATE`, the single writer;
    PostgreSQL: `LOCK TABLE … IN ROW EXCLUSIVE MODE`, the lock every INSERT and UPDATE takes),
    and the slowest probe, less the probe's own time on the idle ledger, is what a delivery
    would have waited.
After each version the ledger's schema must equal what it was before (the script fails
otherwise), so the ledger is left as it was found.

    storekeeper fill-ledger --database sqlite:/tmp/m.sqlite --purchases 1000000 --seed 1
    Scripts/perf/migration_times.py --storekeeper .build/release/storekeeper \\
        --database sqlite:/tmp/m.sqlite --versions 13,14,15,16,17,18,19,20,21,22

PostgreSQL ledgers are given as `postgres://user@127.0.0.1:PORT/DB` (psql must be on PATH or
under /usr/lib/postgresql/*/bin). Prints one JSON object per version, then all as a list.
"""

import argparse
import glob
import json
import shutil
import sqlite3
import subprocess
import sys
import threading
import time

# What each migration made, as the statements that drop it (children before parents).
UNDO = {
    13: {
        "sqlite": ["DROP INDEX purchases_refunded_by_time", "DROP INDEX orders_open_by_product",
                   "DROP INDEX purchases_flagged", "DROP INDEX purchases_by_product_date"],
        "postgres": ["DROP INDEX purchases_refunded_by_time", "DROP INDEX orders_open_by_product",
                     "DROP INDEX purchases_flagged", "DROP INDEX purchases_by_product_date"],
    },
    14: {
        "sqlite": ["DROP TRIGGER orders_known_player", "DROP TRIGGER purchases_known_player",
                   "DROP TRIGGER balances_known_player", "DROP TABLE known_players_search",
                   "DROP TABLE known_players"],
        "postgres": ["DROP TRIGGER orders_known_player ON orders", "DROP TRIGGER purchases_known_player ON purchases",
                     "DROP TRIGGER balances_known_player ON balances",
                     "DROP FUNCTION storekeeper_record_known_player()", "DROP TABLE known_players",
                     "DROP EXTENSION pg_trgm"],
    },
    15: {"sqlite": ["DROP INDEX history_events_unowned"], "postgres": ["DROP INDEX history_events_unowned"]},
    16: {"sqlite": ["DROP INDEX purchases_play_by_delivery"], "postgres": ["DROP INDEX purchases_play_by_delivery"]},
    17: {
        "sqlite": ["DROP TRIGGER history_events_owed", "DROP TRIGGER purchases_owed", "DROP TABLE owed_transactions"],
        "postgres": ["DROP TRIGGER history_events_owed ON history_events", "DROP TRIGGER purchases_owed ON purchases",
                     "DROP FUNCTION storekeeper_record_owed()", "DROP FUNCTION storekeeper_settle_owed()",
                     "DROP TABLE owed_transactions"],
    },
    18: {
        "sqlite": ["DROP TRIGGER purchases_delivery_day", "DROP TABLE delivery_days", "DROP TABLE delivery_latencies",
                   "DROP TABLE delivery_latency_buckets"],
        "postgres": ["DROP TRIGGER purchases_delivery_day ON purchases",
                     "DROP FUNCTION storekeeper_count_delivery_day()", "DROP TABLE delivery_days",
                     "DROP TABLE delivery_latencies", "DROP TABLE delivery_latency_buckets"],
    },
    19: {
        "sqlite": ["DROP TRIGGER purchases_refund_inserted", "DROP TRIGGER purchases_refund_changed",
                   "DROP TABLE player_refunds"],
        "postgres": ["DROP TRIGGER purchases_refund_inserted ON purchases",
                     "DROP TRIGGER purchases_refund_changed ON purchases",
                     "DROP FUNCTION storekeeper_count_player_refund()", "DROP TABLE player_refunds"],
    },
    20: {
        "sqlite": ["DROP TRIGGER purchases_revenue_day", "DROP TRIGGER purchases_revenue_refund",
                   "DROP TABLE purchase_days", "DROP TABLE refund_days"],
        "postgres": ["DROP TRIGGER purchases_revenue_day ON purchases",
                     "DROP TRIGGER purchases_revenue_refund ON purchases",
                     "DROP FUNCTION storekeeper_count_revenue_day()", "DROP FUNCTION storekeeper_move_refund_day()",
                     "DROP TABLE purchase_days", "DROP TABLE refund_days"],
    },
    21: {"sqlite": ["DROP INDEX history_events_reversals_by_player"],
         "postgres": ["DROP INDEX history_events_reversals_by_player"]},
    22: {
        "sqlite": ["DROP INDEX history_events_by_player_id", "DROP TRIGGER history_events_of_purchase",
                   "DROP TRIGGER purchases_unowned_events", "DROP TABLE player_unowned_events"],
        "postgres": ["DROP INDEX history_events_by_player_id", "DROP TRIGGER history_events_of_purchase ON history_events",
                     "DROP TRIGGER purchases_unowned_events ON purchases",
                     "DROP FUNCTION storekeeper_record_event_of_purchase()",
                     "DROP FUNCTION storekeeper_record_events_of_purchase()", "DROP TABLE player_unowned_events"],
    },
    23: {"sqlite": ["DROP INDEX history_events_notifications_by_player", "DROP INDEX ledger_entries_manual_by_player"],
         "postgres": ["DROP INDEX history_events_notifications_by_player", "DROP INDEX ledger_entries_manual_by_player"]},
    24: {
        "sqlite": ["DROP TRIGGER ledger_entries_player_total", "DROP TRIGGER purchases_player_group",
                   "DROP TRIGGER purchases_player_group_refund", "DROP TABLE player_entry_totals",
                   "DROP TABLE player_purchase_groups"],
        "postgres": ["DROP TRIGGER ledger_entries_player_total ON ledger_entries",
                     "DROP TRIGGER purchases_player_group ON purchases",
                     "DROP TRIGGER purchases_player_group_refund ON purchases",
                     "DROP FUNCTION storekeeper_add_player_entry()", "DROP FUNCTION storekeeper_count_player_purchase()",
                     "DROP FUNCTION storekeeper_move_player_purchase()", "DROP TABLE player_entry_totals",
                     "DROP TABLE player_purchase_groups"],
    },
    25: {"sqlite": [], "postgres": ["DROP INDEX history_events_refunds_by_time"]},
}


class SQLiteLedger:
    kind = "sqlite"

    def __init__(self, url: str):
        self.path = url.removeprefix("sqlite:")

    def execute(self, statements: list) -> None:
        database = sqlite3.connect(self.path, isolation_level=None, timeout=600)
        try:
            database.execute("BEGIN IMMEDIATE")
            for statement in statements:
                database.execute(statement)
            database.execute("COMMIT")
        finally:
            database.close()

    def schema(self) -> list:
        database = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            return sorted(tuple(row) for row in database.execute(
                "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"))
        finally:
            database.close()

    def probe(self) -> float:
        """Seconds to take and give back the single writer."""
        database = sqlite3.connect(self.path, isolation_level=None, timeout=600)
        try:
            started = time.perf_counter()
            database.execute("BEGIN IMMEDIATE")
            database.execute("ROLLBACK")
            return time.perf_counter() - started
        finally:
            database.close()


class PostgresLedger:
    kind = "postgres"

    def __init__(self, url: str):
        self.url = url
        psql = shutil.which("psql") or (sorted(glob.glob("/usr/lib/postgresql/*/bin/psql")) or [None])[-1]
        if not psql:
            raise SystemExit("psql not found")
        self.psql = psql

    def query(self, sql: str) -> str:
        return subprocess.run([self.psql, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", self.url, "-c", sql],
                              check=True, capture_output=True, text=True).stdout

    def execute(self, statements: list) -> None:
        self.query("BEGIN; " + "; ".join(statements) + "; COMMIT")

    def schema(self) -> list:
        return sorted(self.query(
            "SELECT 'index ' || indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = current_schema() "
            "UNION ALL SELECT 'table ' || tablename FROM pg_tables WHERE schemaname = current_schema() "
            "UNION ALL SELECT 'trigger ' || tgname || ' ' || tgrelid::regclass FROM pg_trigger WHERE NOT tgisinternal "
            "UNION ALL SELECT 'extension ' || extname FROM pg_extension "
            "UNION ALL SELECT 'invalid ' || indexrelid::regclass FROM pg_index WHERE NOT indisvalid").splitlines())

    def probe(self) -> float:
        """Seconds for a transaction to take the write lock (ROW EXCLUSIVE) of every table
        there is at that moment (a migration undone has dropped some), and end."""
        started = time.perf_counter()
        self.query("BEGIN; DO $$ DECLARE t text; BEGIN FOR t IN SELECT tablename FROM pg_tables "
                   "WHERE schemaname = current_schema() ORDER BY tablename LOOP "
                   "EXECUTE format('LOCK TABLE %I IN ROW EXCLUSIVE MODE', t); END LOOP; END $$; ROLLBACK")
        return time.perf_counter() - started


class Probe(threading.Thread):
    """Takes the write lock over and over until stopped; keeps the slowest time."""

    def __init__(self, ledger):
        super().__init__(daemon=True)
        self.ledger, self.slowest, self.count, self.error = ledger, 0.0, 0, None
        self.stopping = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                self.slowest = max(self.slowest, self.ledger.probe())
                self.count += 1
                time.sleep(0.01)
        except Exception as error:  # reported by stop(): a probe that failed measured nothing
            self.error = error

    def stop(self) -> None:
        self.stopping.set()
        self.join()
        if self.error is not None:
            raise SystemExit(f"the write probe failed: {self.error}")
        if self.count == 0:
            raise SystemExit("the write probe never completed while the migration ran")


def staff_list(storekeeper: str, url: str) -> float:
    started = time.monotonic()
    subprocess.run([storekeeper, "staff", "list", "--database", url], check=True, capture_output=True)
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--storekeeper", required=True)
    parser.add_argument("--database", required=True, help="sqlite:PATH or postgres://…")
    parser.add_argument("--versions", default=",".join(str(v) for v in sorted(UNDO)))
    arguments = parser.parse_args()
    ledger = SQLiteLedger(arguments.database) if arguments.database.startswith("sqlite:") \
        else PostgresLedger(arguments.database)
    versions = [int(v) for v in arguments.versions.split(",")]
    unknown = [v for v in versions if v not in UNDO]
    if unknown:
        raise SystemExit(f"no undo known for versions {unknown} (known: {sorted(UNDO)})")
    idle = min(staff_list(arguments.storekeeper, arguments.database) for _ in range(3))
    idle_probe = min(ledger.probe() for _ in range(5))
    before = ledger.schema()
    results = []
    for version in versions:
        ledger.execute(UNDO[version][ledger.kind] + [f"DELETE FROM schema_migrations WHERE version = {version}"])
        probe = Probe(ledger)
        probe.start()
        seconds = staff_list(arguments.storekeeper, arguments.database)
        probe.stop()
        after = ledger.schema()
        if after != before:
            missing = sorted(set(before) - set(after))
            extra = sorted(set(after) - set(before))
            raise SystemExit(f"migration {version} left a different schema: missing {missing}, extra {extra}")
        result = {
            "ledger": ledger.kind, "version": version, "seconds": round(seconds - idle, 2),
            "longestWriteWaitSeconds": round(max(0.0, probe.slowest - idle_probe), 3), "probes": probe.count,
        }
        print(json.dumps(result), file=sys.stderr, flush=True)
        results.append(result)
    print(json.dumps({"idleStaffListSeconds": round(idle, 2), "migrations": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The plans PostgreSQL chose for a server's statements, read back from its own log.

`auto_explain` (loaded into every session with `session_preload_libraries`, silent until
asked) is switched on by `ALTER SYSTEM` and a reload: the server's open connections log the
plan of each statement they run from then on, with its buffers and actual rows, statements
inside PL/pgSQL functions included. `PlanLog.summary` groups the plans logged since
`start()` by statement text and names every plan node that read a large table whole.
"""

import json
import re
from pathlib import Path

SETTINGS = {
    "auto_explain.log_min_duration": "0",
    "auto_explain.log_analyze": "on",
    "auto_explain.log_buffers": "on",
    "auto_explain.log_timing": "off",
    "auto_explain.log_nested_statements": "on",
    "auto_explain.log_format": "json",
}
# One log entry starts with the log line prefix's timestamp (Debian's default: "%m [%p] ").
ENTRY = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", re.MULTILINE)
PLAN = re.compile(r"duration: ([0-9.]+) ms\s+plan:\s*(\{.*\})", re.DOTALL)
WHOLE_TABLE_SCANS = ("Seq Scan", "Parallel Seq Scan")


class PlanLog:
    """Plans of statements run between `start()` and `stop()` on `postgres` (scale.py's
    Postgres), whose log is `postgres.dir / "postgres.log"`."""

    def __init__(self, postgres, database: str, large_rows: int = 100_000):
        self.postgres, self.database, self.large_rows = postgres, database, large_rows
        self.log_path = Path(postgres.dir) / "postgres.log"
        self.offset = 0

    def start(self) -> None:
        self.offset = self.log_path.stat().st_size
        for name, value in SETTINGS.items():
            self.postgres.psql("postgres", f"ALTER SYSTEM SET {name} = '{value}'")
        self.postgres.psql("postgres", "SELECT pg_reload_conf()")

    def stop(self) -> None:
        for name in SETTINGS:
            self.postgres.psql("postgres", f"ALTER SYSTEM RESET {name}")
        self.postgres.psql("postgres", "SELECT pg_reload_conf()")

    def large_tables(self) -> dict:
        """Tables of the ledger with more than `large_rows` rows (the planner's estimate)."""
        rows = self.postgres.psql(
            self.database,
            f"SELECT relname, reltuples::bigint FROM pg_class WHERE relkind = 'r' AND reltuples > {self.large_rows}")
        return {name: int(count) for name, count in (line.split("|") for line in rows.splitlines() if line)}

    def plans(self) -> list:
        with open(self.log_path, errors="replace") as log:
            log.seek(self.offset)
            text = log.read()
        starts = [match.start() for match in ENTRY.finditer(text)] + [len(text)]
        found = []
        for begin, end in zip(starts, starts[1:]):
            match = PLAN.search(text, begin, end)
            if not match:
                continue
            # Continuation lines of a log entry begin with a tab.
            body = "\n".join(line.removeprefix("\t") for line in match[2].splitlines())
            try:
                found.append((float(match[1]), json.loads(body)))
            except json.JSONDecodeError:
                continue
        return found

    def summary(self) -> dict:
        """Per statement (its text, whitespace folded): runs, the most milliseconds and
        shared buffers of one run, the large tables any run read whole, and the plan of its
        run that touched the most buffers; and the list of statements that read a large table
        whole."""
        large = self.large_tables()
        statements = {}
        for milliseconds, entry in self.plans():
            text = " ".join(entry.get("Query Text", "").split())
            plan = entry.get("Plan", {})
            buffers = plan.get("Shared Hit Blocks", 0) + plan.get("Shared Read Blocks", 0)
            seen = statements.setdefault(
                text, {"runs": 0, "maxMilliseconds": 0.0, "maxBuffers": -1, "scans": set(), "plan": None})
            seen["runs"] += 1
            seen["maxMilliseconds"] = max(seen["maxMilliseconds"], milliseconds)
            if buffers > seen["maxBuffers"]:
                seen["maxBuffers"], seen["plan"] = buffers, plan
            seen["scans"] |= {table for table in whole_table_scans(plan) if table in large}
        listed = [
            {"statement": text[:300], "runs": seen["runs"], "maxMilliseconds": round(seen["maxMilliseconds"], 2),
             "maxBuffers": seen["maxBuffers"], "largeTablesReadWhole": sorted(seen["scans"]), "plan": seen["plan"]}
            for text, seen in sorted(statements.items(), key=lambda item: -item[1]["maxBuffers"])
        ]
        return {
            "largeTables": large,
            "statements": listed,
            "readingLargeTablesWhole": [row for row in listed if row["largeTablesReadWhole"]],
        }


def whole_table_scans(plan: dict):
    """Tables a plan node (or any below it) reads whole."""
    if plan.get("Node Type") in WHOLE_TABLE_SCANS and "Relation Name" in plan:
        yield plan["Relation Name"]
    for child in plan.get("Plans", []):
        yield from whole_table_scans(child)

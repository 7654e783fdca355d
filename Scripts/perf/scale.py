#!/usr/bin/env python3
"""The scale table of docs/PERFORMANCE.md ("Years of history"): the same measurements on an
empty ledger and on ledgers that `storekeeper fill-ledger` filled with years of history, on
SQLite and on PostgreSQL, each beside the same run's floors.

For every ledger and size it:
  1. fills a new ledger (`fill-ledger`, timed; size 0 is the empty ledger) and measures its
     bytes on disk;
  2. starts `storekeeper serve --dev` on it and times the start, the entitlement backfill
     included (the server answers /healthz after it);
  3. runs `storekeeper loadtest --prepared` at concurrency 32 and 1 (deliveries/s, p99, the
     server's CPU per delivery and its ratio to a P-256 verify timed in the same process, the
     load generator's own CPU);
  4. times every admin read and console page on players, orders and transactions sampled
     from the ledger, the whale's timeline paged to its end (or `--timeline-pages` pages),
     and reconciler passes (the
     console's "check now"), and reports p50/p99 for each;
  5. with `--explain`, on a PostgreSQL ledger: reads every page once more and delivers a few
     purchases with `auto_explain` on, and reports the plan of every statement they ran (its
     most buffers and milliseconds of one run) and any that read a large table whole
     (plan_log.py); a statement that did makes the run fail;
  6. stops the server and removes the ledger (`--keep-ledgers` keeps it).
With `--out DIR --keep-ledgers` the ledgers stay in DIR (SQLite files, and a PostgreSQL
cluster in DIR/postgres), each with its fill's summary; `--reuse` measures those ledgers
again instead of filling new ones: a later build's migrations then run on them at the
server's start (timed with it), which is how a 10M ledger is measured twice in one session.
The floors (a P-256 verify from `storekeeper bench`, SQLite's and PostgreSQL's own
single-row insert rates) are measured once at the start of the run.

    Scripts/perf/scale.py --sizes 0,1000000 --ledgers sqlite,postgres
    Scripts/perf/scale.py --storekeeper .build/debug/storekeeper --sizes 0,2000 --reads 5 --prepared 200
    Scripts/perf/scale.py --sizes 10000000 --ledgers sqlite --out /work/big --keep-ledgers [--reuse]
    Scripts/perf/scale.py --sizes 10000000 --ledgers postgres --out /work/big --reuse --explain

Prints one JSON object per ledger and size as it goes (to standard error, with progress) and
the whole result as JSON on standard output; `--out` keeps the logs. Exits 1 when a load test
did not deliver every prepared purchase exactly once or a read failed. Needs PostgreSQL 15's
initdb/pg_ctl/psql/pgbench (Debian: apt-get install postgresql) for the PostgreSQL ledgers.
"""

import argparse
import glob
import http.client
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote, urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from storekeeper_processes import Child, free_port, wait_until_serving  # noqa: E402
from plan_log import PlanLog  # noqa: E402

CONSOLE_LINE = re.compile(r"Support console: (http://\S+) \(sign in as (\S+), password (\S+)\)")
CSRF_FIELD = re.compile(r'name="csrf" value="([^"]+)"')
DEV_ADMIN_KEY = "dev-admin-key"  # serve --dev's admin key (docs/server.md)
IDLE_SECONDS = 20  # a connection idle longer is opened again (the server's idle timeout is 30 s)


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def percentile(samples: list, fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, int(round(fraction * len(ordered) + 0.5)) - 1)] if ordered else 0.0


def summary(samples: list) -> dict:
    return {
        "count": len(samples),
        "p50Milliseconds": round(percentile(samples, 0.5), 2),
        "p99Milliseconds": round(percentile(samples, 0.99), 2),
        "maxMilliseconds": round(max(samples), 2) if samples else 0.0,
    }


class Postgres:
    """A PostgreSQL cluster of the run (fsync on, default settings but max_connections): a
    throwaway one, or, given `directory`, one kept there (started again when it exists).
    With `explain`, every session loads `auto_explain` (silent until plan_log.py asks)."""

    def __init__(self, directory: Path = None, explain: bool = False):
        candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        if not candidates:
            raise SystemExit("PostgreSQL's initdb not found under /usr/lib/postgresql/*/bin")
        self.bin = Path(candidates[-1])
        self.kept = directory is not None
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
        self.dir = directory or Path(tempfile.mkdtemp(prefix="scale-pg-"))
        os.chmod(self.dir, 0o777)
        self.port = free_port()
        if not (self.dir / "data" / "PG_VERSION").exists():
            self.as_postgres([str(self.bin / "initdb"), "-D", str(self.dir / "data"), "-U", "postgres",
                              "--auth=trust"])
        options = f"-p {self.port} -k {self.dir} -c max_connections=200 -c listen_addresses=127.0.0.1"
        if explain:
            options += " -c session_preload_libraries=auto_explain"
        self.as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-l", str(self.dir / "postgres.log"),
                          "-w", "start", "-o", options])

    def as_postgres(self, command: list) -> None:
        if os.getuid() == 0:
            command = ["su", "postgres", "-s", "/bin/sh", "-c", " ".join(quote_shell(part) for part in command)]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)

    def psql(self, database: str, sql: str) -> str:
        answer = subprocess.run(
            [str(self.bin / "psql"), "-X", "-q", "-At", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
             "-d", database, "-c", sql], check=True, capture_output=True, text=True)
        return answer.stdout

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        try:
            self.as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "stop"])
        finally:
            if not self.kept:
                shutil.rmtree(self.dir, ignore_errors=True)


def quote_shell(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def floors(storekeeper: str, postgres, workdir: Path) -> dict:
    log("floors: storekeeper bench, SQLite's and PostgreSQL's single-row insert rates")
    bench = json.loads(subprocess.run([storekeeper, "bench", "--seconds", "2", "--json"], check=True,
                                      capture_output=True, text=True).stdout)
    p256 = next(r["p50Microseconds"] for r in bench["results"] if r["name"].startswith("p256-verify (floor)"))
    for path in glob.glob(str(workdir / "ceiling.sqlite*")):
        os.remove(path)
    database = sqlite3.connect(str(workdir / "ceiling.sqlite"), isolation_level=None)
    database.execute("PRAGMA journal_mode=WAL")
    database.execute("PRAGMA synchronous=FULL")
    database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v REAL)")
    count, start = 0, time.monotonic()
    while time.monotonic() - start < 5:
        database.execute("BEGIN IMMEDIATE")
        database.execute("INSERT INTO t (v) VALUES (random())")
        database.execute("COMMIT")
        count += 1
    result = {"p256VerifyMicroseconds": p256, "sqliteInsertsPerSecond": round(count / (time.monotonic() - start))}
    if postgres:
        postgres.psql("postgres", "DROP DATABASE IF EXISTS ceiling")
        postgres.psql("postgres", "CREATE DATABASE ceiling")
        postgres.psql("ceiling", "CREATE TABLE t (id BIGSERIAL PRIMARY KEY, v DOUBLE PRECISION)")
        script = workdir / "insert.sql"
        script.write_text("INSERT INTO t (v) VALUES (random());\n")
        for clients in (32, 1):
            output = subprocess.run(
                [str(postgres.bin / "pgbench"), "-n", "-h", "127.0.0.1", "-p", str(postgres.port), "-U", "postgres",
                 "-c", str(clients), "-j", "2", "-T", "10", "-f", str(script), "ceiling"],
                check=True, capture_output=True, text=True).stdout
            result[f"postgresInsertsPerSecondC{clients}"] = round(float(re.search(r"tps = ([0-9.]+)", output)[1]))
    return result


class Ledger:
    """One ledger of the table: its URL, its bytes on disk, and ids sampled from it."""

    def __init__(self, kind: str, size: int, workdir: Path, postgres, reuse: bool):
        self.kind, self.size, self.postgres = kind, size, postgres
        self.summary_path = workdir / f"fill-{kind}-{size}.json"
        if kind == "sqlite":
            self.path = workdir / f"ledger-{size}.sqlite"
            self.url = f"sqlite:{self.path}"
            self.exists = self.path.exists()
        else:
            self.database = f"scale_{size}"
            self.exists = postgres.psql(
                "postgres", f"SELECT 1 FROM pg_database WHERE datname = '{self.database}'").strip() == "1"
            if self.exists and not reuse:
                raise SystemExit(f"{self.database} exists in {postgres.dir}: measure it with --reuse")
            if not self.exists:
                postgres.psql("postgres", f"CREATE DATABASE {self.database}")
            self.url = postgres.url(self.database)
        if kind == "sqlite" and self.exists and not reuse:
            raise SystemExit(f"{self.path} exists: measure it with --reuse, or remove it")
        self.filled = self.exists and (size == 0 or self.summary_path.exists())

    def remove(self) -> None:
        """Frees the ledger's disk: ten million purchases take tens of gigabytes."""
        if self.kind == "sqlite":
            for path in glob.glob(f"{self.path}*"):
                os.remove(path)
        else:
            self.postgres.psql("postgres", f"DROP DATABASE {self.database}")

    def bytes_on_disk(self) -> int:
        if self.kind == "sqlite":
            return sum(os.path.getsize(p) for p in glob.glob(f"{self.path}*"))
        return int(self.postgres.psql(self.database, "SELECT pg_database_size(current_database())").strip())

    def rows(self, sql: str) -> list:
        if self.kind == "sqlite":
            database = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                return [tuple(str(value) for value in row) for row in database.execute(sql)]
            finally:
                database.close()
        return [tuple(line.split("|")) for line in self.postgres.psql(self.database, sql).splitlines() if line]

    def sample(self, column: str, table: str, count: int) -> list:
        """`count` values of `column` from random rows of `table`, without a sort of the table."""
        if self.kind == "sqlite":
            top = self.rows(f"SELECT max(rowid) FROM {table}")[0][0]
            if top in ("None", ""):
                return []
            picks = ",".join(str(random.randint(1, int(top))) for _ in range(count * 2))
            found = self.rows(f"SELECT {column} FROM {table} WHERE rowid IN ({picks})")
        else:
            total = int(self.rows(f"SELECT count(*) FROM {table}")[0][0] or 0)
            if total == 0:
                return []
            percent = min(100.0, 100.0 * count * 4 / total)
            found = self.rows(f"SELECT {column} FROM {table} TABLESAMPLE BERNOULLI ({percent}) LIMIT {count * 2}")
        values = [row[0] for row in found if row and row[0]]
        random.shuffle(values)
        return values[:count]


class Server:
    """`storekeeper serve --dev` on a ledger, with an admin key and a console session."""

    def __init__(self, storekeeper: str, ledger: Ledger, workdir: Path, label: str):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        started = time.monotonic()
        self.child = Child(f"server-{label}", [storekeeper, "serve", "--dev", "--port", str(self.port),
                                               "--database", ledger.url], workdir)
        wait_until_serving(self.base + "/healthz", self.child.process, seconds=3600)
        self.start_seconds = time.monotonic() - started
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        self.last_used = time.monotonic()
        self.cookies = {}
        self.sign_in()

    def request(self, method: str, path: str, body: bytes = None, headers: dict = None):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if time.monotonic() - self.last_used > IDLE_SECONDS:
            # The server closes a keep-alive connection idle for its idle timeout (30 s by
            # default): sampling a large ledger between reads takes longer than that.
            self.connection.close()
        started = time.perf_counter()
        self.connection.request(method, path, body=body, headers=headers)
        answer = self.connection.getresponse()
        data = answer.read()
        elapsed = (time.perf_counter() - started) * 1000
        self.last_used = time.monotonic()
        for header, value in answer.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return answer.status, data, elapsed

    def sign_in(self) -> None:
        text = ""
        for _ in range(100):
            text = self.child.log_path.read_text(errors="replace")
            if CONSOLE_LINE.search(text):
                break
            time.sleep(0.1)
        match = CONSOLE_LINE.search(text)
        if not match:
            raise SystemExit("serve --dev printed no console sign-in line")
        _, name, password = match.groups()
        _, page, _ = self.request("GET", "/console/sign-in")
        csrf = CSRF_FIELD.search(page.decode())[1]
        form = urlencode({"csrf": csrf, "next": "/console/", "name": name, "password": password, "code": ""})
        status, _, _ = self.request("POST", "/console/sign-in", form.encode(),
                                    {"Content-Type": "application/x-www-form-urlencoded", "Origin": self.base})
        if status != 303:
            raise SystemExit(f"console sign-in answered {status}")

    def csrf(self) -> str:
        _, page, _ = self.request("GET", "/console/owed")
        return CSRF_FIELD.search(page.decode())[1]

    def stop(self) -> None:
        self.connection.close()
        self.child.stop()


def loadtest(storekeeper: str, server: Server, count: int, concurrency: int, workdir: Path, label: str) -> dict:
    output = workdir / f"loadtest-{label}-c{concurrency}.json"
    with open(output, "w") as stdout, open(workdir / f"loadtest-{label}-c{concurrency}.log", "w") as stderr:
        status = subprocess.run(
            [storekeeper, "loadtest", "--url", server.base, "--prepared", str(count), "--concurrency",
             str(concurrency), "--server-pid", str(server.child.process.pid), "--json"], stdout=stdout,
            stderr=stderr).returncode
    report = json.loads(output.read_text())
    cpu = report.get("cpu", {})
    return {
        "ok": status == 0 and report["errors"] == 0,
        "deliveriesPerSecond": round(report["deliveriesPerSecond"], 1),
        "p99Milliseconds": round(report["latencyMilliseconds"]["report"]["p99"], 2),
        "serverCPUMicrosecondsPerDelivery": cpu.get("serverMicrosecondsPerDelivery"),
        "loadGeneratorCPUMicrosecondsPerDelivery": cpu.get("loadGeneratorMicrosecondsPerDelivery"),
        "serverCPUPerDeliveryToFloor": report.get("serverCPUPerDeliveryToFloor"),
    }


def read_paths(ledger: Ledger, reads: int, whale: str) -> dict:
    """Every admin read and console page, each on `reads` ids sampled from the ledger."""
    players = ledger.sample("player_id", "purchases", reads)
    transactions = ledger.sample("transaction_id", "purchases", reads)
    orders = ledger.sample("order_id", "orders", reads)
    admin = {"Authorization": f"Bearer {DEV_ADMIN_KEY}"}
    pages = {
        "admin timeline (first page)": [(f"/v1/admin/players/{quote(p, safe='')}/timeline", admin) for p in players],
        "admin entitlements": [(f"/v1/admin/players/{quote(p, safe='')}/entitlements", admin) for p in players],
        "admin player orders": [(f"/v1/admin/players/{quote(p, safe='')}/orders", admin) for p in players],
        "admin transaction": [(f"/v1/admin/transactions/{quote(t, safe='')}", admin) for t in transactions],
        "admin order": [(f"/v1/admin/orders/{quote(o, safe='')}", admin) for o in orders],
        "console search by player": [("/console/search?" + urlencode({"q": p}), None) for p in players],
        "console search by part of a player id": [
            ("/console/search?" + urlencode({"q": p[len(p) // 3:]}), None) for p in players],
        "console search by order": [("/console/search?" + urlencode({"q": o}), None) for o in orders],
        "console search by transaction": [("/console/search?" + urlencode({"q": t}), None) for t in transactions],
        "console search by Apple order id (unknown to Apple)": [
            ("/console/search?" + urlencode({"q": "MQ" + "".join(random.choices("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", k=8))}),
             None) for _ in range(reads)],
        "console player page": [(f"/console/players/{quote(p, safe='')}", None) for p in players],
        "console transaction page": [(f"/console/transactions/{quote(t, safe='')}", None) for t in transactions],
        "console order page": [(f"/console/orders/{quote(o, safe='')}", None) for o in orders],
        "console owed queue": [("/console/owed", None)] * reads,
        "console overview": [("/console/overview", None)] * reads,
        "console audit": [("/console/audit", None)] * reads,
    }
    if whale:
        pages["console player page (whale)"] = [(f"/console/players/{quote(whale, safe='')}", None)] * reads
    return pages


def whale_timeline(server: Server, whale: str, failures: list, pages: int = None) -> list:
    """Pages the whale's admin timeline 50 events at a time to its first event (or for
    `pages` pages); the milliseconds of each page."""
    samples, cursor, path = [], None, f"/v1/admin/players/{quote(whale, safe='')}/timeline"
    admin = {"Authorization": f"Bearer {DEV_ADMIN_KEY}"}
    while pages is None or len(samples) < pages:
        query = "?" + urlencode({"limit": 50, **({"cursor": cursor} if cursor else {})})
        status, data, elapsed = server.request("GET", path + query, headers=admin)
        if status != 200:
            failures.append(f"whale timeline: {status}")
            break
        samples.append(elapsed)
        cursor = json.loads(data).get("nextCursor")
        if not cursor:
            break
    return samples


def reconcile(server: Server, failures: list) -> float:
    """One reconciler pass (the console's "check now"); its milliseconds."""
    form = urlencode({"csrf": server.csrf()}).encode()
    status, _, elapsed = server.request(
        "POST", "/console/owed/reconcile", form,
        {"Content-Type": "application/x-www-form-urlencoded", "Origin": server.base})
    if status not in (200, 303):
        failures.append(f"reconciler pass: {status}")
    return elapsed


def time_reads(server: Server, ledger: Ledger, reads: int, whale: str, timeline_pages: int = None) -> tuple:
    """p50/p99 of every admin read and console page, over `reads` sampled ids each."""
    pages = read_paths(ledger, reads, whale)
    results, failures = {}, []
    for name, requests in pages.items():
        samples = []
        for path, headers in requests:
            status, _, elapsed = server.request("GET", path, headers=headers)
            if status not in (200, 303, 404):
                failures.append(f"{name}: {path} answered {status}")
            samples.append(elapsed)
        results[name] = summary(samples)
    if whale:
        samples = whale_timeline(server, whale, failures, timeline_pages)
        name = "admin timeline paged to the whale's first event" if timeline_pages is None or \
            len(samples) < timeline_pages else f"admin timeline, the whale's newest {timeline_pages} pages"
        results[name] = summary(samples)
    samples = [reconcile(server, failures) for _ in range(max(1, reads // 10))]
    results["reconciler pass (console check now)"] = summary(samples)
    return results, failures


def explain(arguments, server: Server, ledger: Ledger, whale: str, workdir: Path, label: str) -> tuple:
    """The plans of every statement a page, a whale's timeline pages, a reconciler pass and
    a few deliveries run on this PostgreSQL ledger (plan_log.py), and a failure for each
    statement that read a large table whole."""
    plans, failures = PlanLog(ledger.postgres, ledger.database), []
    pages = read_paths(ledger, 2, whale)  # sampled before: the sampling's own scans are not the server's
    plans.start()
    try:
        for requests in pages.values():
            for path, headers in requests:
                server.request("GET", path, headers=headers)
        if whale:
            whale_timeline(server, whale, failures, pages=3)
        reconcile(server, failures)
        loadtest(arguments.storekeeper, server, 20, 4, workdir, label + "-explain")
    finally:
        plans.stop()
    report = plans.summary()
    (workdir / f"plans-{label}.json").write_text(json.dumps(report, indent=1) + "\n")
    failures += [f"reads a large table whole: {row['statement'][:120]}" for row in report["readingLargeTablesWhole"]]
    def brief(row):
        return {key: value for key, value in row.items() if key != "plan"}
    return {"statements": len(report["statements"]), "mostBuffers": [brief(row) for row in report["statements"][:5]],
            "readingLargeTablesWhole": [brief(row) for row in report["readingLargeTablesWhole"]]}, failures


def measure(arguments, kind: str, size: int, workdir: Path, postgres) -> dict:
    label = f"{kind}-{size}"
    ledger = Ledger(kind, size, workdir, postgres, arguments.reuse)
    row = {"ledger": kind, "purchases": size, "reused": ledger.filled}
    if ledger.filled:
        log(f"{label}: reusing the ledger (no fill)")
        if size > 0:
            row["fill"] = json.loads(ledger.summary_path.read_text())
    elif size > 0:
        log(f"{label}: fill-ledger")
        fill = subprocess.run([arguments.storekeeper, "fill-ledger", "--database", ledger.url, "--purchases",
                               str(size), "--seed", str(arguments.seed)], check=True, capture_output=True, text=True)
        row["fill"] = json.loads(fill.stdout.strip().splitlines()[-1])
        ledger.summary_path.write_text(json.dumps(row["fill"]) + "\n")
    row["bytesOnDisk"] = ledger.bytes_on_disk()
    row["bytesPerPurchase"] = round(row["bytesOnDisk"] / size) if size else None
    log(f"{label}: serve --dev")
    server = Server(arguments.storekeeper, ledger, workdir, label)
    failures = []
    try:
        row["serverStartSeconds"] = round(server.start_seconds, 2)
        for concurrency, count in ((32, arguments.prepared), (1, max(1, arguments.prepared // 4))):
            log(f"{label}: loadtest --prepared {count} --concurrency {concurrency}")
            result = loadtest(arguments.storekeeper, server, count, concurrency, workdir, label)
            row[f"deliveryC{concurrency}"] = result
            if not result["ok"]:
                failures.append(f"loadtest c={concurrency} did not deliver every purchase exactly once")
        log(f"{label}: reads")
        row["reads"], read_failures = time_reads(server, ledger, arguments.reads, row.get("fill", {}).get("whale"),
                                                 arguments.timeline_pages)
        failures += read_failures
        if arguments.explain and kind == "postgres":
            log(f"{label}: plans (auto_explain)")
            row["plans"], plan_failures = explain(arguments, server, ledger, row.get("fill", {}).get("whale"),
                                                  workdir, label)
            failures += plan_failures
        with open(f"/proc/{server.child.process.pid}/status") as status:
            row["serverRSSKilobytes"] = int(re.search(r"VmRSS:\s+(\d+)", status.read())[1])
    finally:
        server.stop()
        if not arguments.keep_ledgers:
            ledger.remove()
    row["failures"] = failures
    log(json.dumps(row))
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--storekeeper", default=str(Path(__file__).resolve().parents[2] / ".build/release/storekeeper"))
    parser.add_argument("--sizes", default="0,1000000", help="purchases per ledger, comma-separated")
    parser.add_argument("--ledgers", default="sqlite,postgres")
    parser.add_argument("--reads", type=int, default=200, help="samples of every read")
    parser.add_argument("--prepared", type=int, default=4000, help="purchases of the c=32 load test (a quarter at c=1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="folder for logs (default: a temporary one, removed)")
    parser.add_argument("--keep-ledgers", action="store_true",
                        help="keep each ledger after its row (by default it is removed to free the disk)")
    parser.add_argument("--reuse", action="store_true",
                        help="measure the ledgers an earlier --out DIR --keep-ledgers run left in DIR, unfilled")
    parser.add_argument("--timeline-pages", type=int,
                        help="page the whale's timeline this many pages deep, not to its first event")
    parser.add_argument("--explain", action="store_true",
                        help="on PostgreSQL ledgers, read back the plan of every statement run (plan_log.py)")
    arguments = parser.parse_args()
    if (arguments.reuse or arguments.keep_ledgers) and not arguments.out:
        parser.error("--keep-ledgers and --reuse need --out")
    # The servers run in the work folder: a path relative to here must still name the binary.
    arguments.storekeeper = str(Path(arguments.storekeeper).resolve())
    random.seed(arguments.seed)
    workdir = Path(arguments.out or tempfile.mkdtemp(prefix="scale-"))
    workdir.mkdir(parents=True, exist_ok=True)
    kinds = arguments.ledgers.split(",")
    postgres = None
    if "postgres" in kinds:
        postgres = Postgres(workdir / "postgres" if arguments.keep_ledgers or arguments.reuse else None,
                            explain=arguments.explain)
    try:
        floor = floors(arguments.storekeeper, postgres, workdir)
        log(json.dumps(floor))
        rows = [measure(arguments, kind, int(size), workdir, postgres)
                for kind in kinds for size in arguments.sizes.split(",")]
    finally:
        if postgres:
            postgres.stop()
        if not arguments.out:
            shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps({"floors": floor, "rows": rows}, indent=1))
    return 1 if any(row["failures"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A full disk under load, as operators meet it: the CI test of issue 28's storage faults.

    sudo python3 Scripts/deploy/storage_faults.py --binary .build/debug/storekeeper

As root, mounts a small tmpfs, runs `storekeeper serve --dev` with its SQLite ledger on it
(the emulator's files stay on the ordinary disk: Apple stays up), and drives purchases from
several players at once (order, pay on the emulator, report, as the SDK does). Then it
fills the file system with a filler file, leaving a little room that the purchases use up,
and keeps the load on while the disk is full. It checks:

- every write answers 503 `storage_unavailable` with `Retry-After` (never 500): orders and
  reports under load, and once each of the other write routes (of these, a small write that
  still fits in the room SQLite's write-ahead log keeps may succeed instead, and is then
  read back from the player's timeline);
- `/healthz` answers 503 `"database": "not_writable"`;
- the server's log does not flood: a bounded number of lines while thousands of requests
  fail, with a `repeated N times` count line;
- after the filler is deleted the server serves again by itself (`/healthz` 200), and,
  once the players reported again what they could not (the SDK's journal), every charge
  the emulator made (GET /emulator/v1/ledger, the ground truth) is delivered exactly once,
  to its player (the server's history of the transaction, and each wallet).

Prints the figures and exits 0 when every check held, 1 otherwise (2: cannot run, e.g. not
root). Always unmounts. Standard library only.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from storekeeper_processes import Child, free_port, http_call, wait_until_serving  # noqa: E402

ADMIN_KEY = "dev-admin-key"


def parse(arguments):
    parser = argparse.ArgumentParser(description="A full disk under load: 503s, /healthz, log, recovery.")
    parser.add_argument("--binary", default=None, help="storekeeper (default: .build/debug, else .build/release)")
    parser.add_argument("--size-mb", type=int, default=16, help="the tmpfs's size (default 16)")
    parser.add_argument("--room-kb", type=int, default=768, help="room left beside the filler (default 768)")
    parser.add_argument("--players", type=int, default=6, help="players buying at once (default 6)")
    parser.add_argument("--fault-seconds", type=float, default=15, help="load kept on the full disk (default 15)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs)")
    return parser.parse_args(arguments)


def find_binary(given):
    if given:
        return Path(given).resolve()
    root = Path(__file__).resolve().parent.parent.parent
    for configuration in ("debug", "release"):
        candidate = root / ".build" / configuration / "storekeeper"
        if candidate.exists():
            return candidate
    raise SystemExit("storage_faults: no storekeeper binary; build it or pass --binary")


def call(method, url, body=None, token=None, timeout=30):
    """(status, headers, JSON body or None); never raises on an HTTP status."""
    status, headers, raw = http_call(method, url, body, token, timeout)
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = None
    return status, headers, parsed


class Tally:
    """What the players saw, shared by their threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.statuses = {}  # (route, status) -> count
        self.bad = []  # answers that break the rules (500s, 503s without Retry-After...)
        self.pending = []  # (player, signedTransaction) the server did not acknowledge yet
        self.acknowledged = set()
        self.delivered_before_full = 0
        self.full = threading.Event()

    def record(self, route, status, headers, body):
        with self.lock:
            self.statuses[(route, status)] = self.statuses.get((route, status), 0) + 1
            if status >= 500:
                code = (body or {}).get("error") or (body or {}).get("reason")
                if status != 503 or code != "storage_unavailable" or "Retry-After" not in headers:
                    if len(self.bad) < 20:
                        self.bad.append(f"{route}: {status} {code} Retry-After={headers.get('Retry-After')}")
                elif not self.full.is_set():
                    self.full.set()

    def count(self, status=None, routes=None):
        with self.lock:
            return sum(
                n for (route, s), n in self.statuses.items()
                if (status is None or s == status) and (routes is None or route in routes)
            )


class Player(threading.Thread):
    """One player on one phone, buying coins100 in a loop until told to stop."""

    def __init__(self, base, name, token, tally, stop):
        super().__init__(daemon=True)
        self.base, self.name, self.token, self.tally, self.stop = base, name, token, tally, stop
        self.device = f"phone-{name}"
        self.spare_orders = []  # orders made before the disk filled, paid while it is full

    def order(self):
        status, headers, body = call("POST", f"{self.base}/v1/orders", {"productId": "coins100"}, self.token)
        self.tally.record("orders", status, headers, body)
        return body["appAccountToken"] if status == 201 else None

    def report(self, jws):
        status, headers, body = call("POST", f"{self.base}/v1/purchases", {"signedTransaction": jws}, self.token)
        self.tally.record("purchases", status, headers, body)
        acknowledged = status == 200 and (body or {}).get("status") in ("delivered", "already_delivered")
        return acknowledged

    def buy(self, app_account_token):
        status, _, body = call(
            "POST", f"{self.base}/emulator/v1/devices/{self.device}/purchases",
            {"productId": "coins100", "appAccountToken": app_account_token, "includeAppReceipt": False},
        )
        if status != 200:
            raise RuntimeError(f"the emulator did not charge: {status} {body}")
        jws = body["signedTransaction"]
        if self.report(jws):
            with self.tally.lock:
                self.tally.acknowledged.add(jws)
                if not self.tally.full.is_set():
                    self.tally.delivered_before_full += 1
        else:
            with self.tally.lock:
                self.tally.pending.append((self, jws))

    def run(self):
        for _ in range(3):
            token = self.order()
            if token:
                self.spare_orders.append(token)
        while not self.stop.is_set():
            token = self.order()
            if token is None:
                # The disk is full: Apple still charges the orders the game made before.
                if self.spare_orders:
                    self.buy(self.spare_orders.pop())
                continue
            self.buy(token)


def mount_tmpfs(path, size_mb):
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m,mode=0755", "tmpfs", str(path)], check=True)


def free_bytes(path):
    stat = os.statvfs(path)
    return stat.f_bavail * stat.f_frsize


def fill(path, leave):
    """Writes a filler file that leaves `leave` bytes free; returns its path."""
    filler = path / "filler"
    with open(filler, "wb") as file:
        remaining = max(0, free_bytes(path) - leave)
        chunk = b"\0" * (64 * 1024)
        while remaining > 0:
            part = chunk[: min(len(chunk), remaining)]
            file.write(part)
            remaining -= len(part)
        file.flush()
        os.fsync(file.fileno())
    return filler


def timeline_has(base, player, wanted):
    """Whether `player`'s admin timeline holds an event of type `wanted[0]` whose detail has
    the value `wanted[1]` (reads work on a full disk)."""
    kind, value = wanted
    cursor = None
    while True:
        query = f"?limit=200&cursor={cursor}" if cursor else "?limit=200"
        status, _, page = call("GET", f"{base}/v1/admin/players/{player}/timeline{query}", token=ADMIN_KEY)
        if status != 200:
            return False
        if any(e["type"] == kind and value in (e.get("detail") or {}).values() for e in page["events"]):
            return True
        cursor = page.get("nextCursor")
        if not cursor:
            return False


def probe_other_write_routes(base, player, token, jws):
    """Each other write route once on the full disk: (route, must write, status, code,
    Retry-After, written). A write that still fits in the room SQLite's write-ahead log
    keeps (one small event, one grant) may succeed: then it must really be in the ledger
    (`written`, read back from the player's timeline). A route that may answer without
    writing (a withdrawal of a consent never given) only must not answer 500."""
    mark = f"probe-{time.time_ns()}"
    event = {"name": "purchase_started", "occurredAt": int(time.time() * 1000), "attributes": {"probe": mark}}
    probes = [
        ("POST /v1/events", True, "POST", "/v1/events", {"events": [event]}, token, ("client_event", mark)),
        ("POST /v1/purchases (a new charge)", True, "POST", "/v1/purchases", {"signedTransaction": jws}, token,
         None),  # a charge that went through is checked with every other charge, exactly once
        ("POST /v1/admin/grants", True, "POST", "/v1/admin/grants",
         {"playerId": player, "grants": {"gems": 1}, "reason": mark}, ADMIN_KEY, ("manual_grant", mark)),
        ("DELETE /v1/admin/players/{playerId}/consumption-consent", False, "DELETE",
         f"/v1/admin/players/{player}/consumption-consent", None, ADMIN_KEY, None),
    ]
    answers = []
    for name, writes, method, path, body, credential, wanted in probes:
        status, headers, parsed = call(method, base + path, body, credential)
        written = None
        if 200 <= status < 300:
            written = timeline_has(base, player, wanted) if wanted else True
        answers.append((name, writes, status, (parsed or {}).get("error") or (parsed or {}).get("reason"),
                        headers.get("Retry-After"), written))
    return answers


def log_lines(path, start, end=None):
    with open(path, "rb") as file:
        file.seek(start)
        data = file.read() if end is None else file.read(end - start)
    return data.decode(errors="replace").splitlines()


def check_exactly_once(base, players):
    """Every charge of the emulator against the server's history and wallets: problems."""
    problems = []
    _, _, charges = call("GET", base + "/emulator/v1/ledger")
    by_device = {}
    for charge in charges:
        by_device.setdefault(charge["deviceId"], []).append(charge)
    for player in players:
        mine = by_device.get(player.device, [])
        for charge in mine:
            _, _, history = call("GET", f"{base}/v1/admin/transactions/{charge['transactionId']}", token=ADMIN_KEY)
            deliveries = [e for e in (history or {}).get("events", []) if e["type"] == "delivered"]
            if len(deliveries) != 1 or deliveries[0].get("playerId") != player.name:
                problems.append(f"transaction {charge['transactionId']} of {player.name}: deliveries "
                                f"{[e.get('playerId') for e in deliveries]}")
        _, _, wallet = call("GET", base + "/v1/players/me/wallet", token=player.token)
        coins = (wallet or {}).get("balances", {}).get("coins", 0)
        if coins != 100 * len(mine):
            problems.append(f"{player.name}: {coins} coins for {len(mine)} charges")
    return problems, len(charges)


def main(arguments):
    options = parse(arguments)
    if os.geteuid() != 0:
        print("storage_faults: needs root (it mounts a tmpfs)", file=sys.stderr)
        return 2
    binary = find_binary(options.binary)
    work = Path(tempfile.mkdtemp(prefix="storage-faults-"))
    mount = work / "disk"
    mount_tmpfs(mount, options.size_mb)
    server = None
    stop = threading.Event()
    failures = []
    figures = {}
    try:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = Child("server", [
            str(binary), "serve", "--dev", "--port", str(port), "--database", f"sqlite:{mount / 'ledger.sqlite'}",
            "--dev-data-dir", str(work / "dev"),
        ], work)
        wait_until_serving(base + "/healthz", server.process)
        tally = Tally()
        players = []
        for index in range(options.players):
            name = f"disk{index}"
            token = subprocess.run([str(binary), "token", "--player", name, "--lifetime", "86400"],
                                   check=True, capture_output=True, text=True).stdout.strip()
            players.append(Player(base, name, token, tally, stop))
        probe_order = players[0].order()  # paid while the disk is full
        for player in players:
            player.start()

        # Warm up, then leave only a little room: the purchases fill it.
        time.sleep(3)
        filler = fill(mount, options.room_kb * 1024)
        filled_at = time.monotonic()
        print(f"storage_faults: filler written, {free_bytes(mount) // 1024} KB left on the {options.size_mb} MB "
              f"tmpfs; {len(tally.acknowledged)} deliveries so far")
        if not tally.full.wait(timeout=180):
            failures.append("the disk did not fill within 180 s")
            raise StopIteration
        full_at = time.monotonic()
        log_start = server.log_path.stat().st_size
        requests_before = tally.count(routes=("orders", "purchases"))
        figures["writes_before_full"] = tally.delivered_before_full
        figures["seconds_to_fill"] = round(full_at - filled_at, 1)

        time.sleep(2)
        status, _, health = call("GET", base + "/healthz")
        figures["healthz_during_fault"] = f"{status} {json.dumps(health, separators=(',', ':'))}"
        if status != 503 or (health or {}).get("database") != "not_writable":
            failures.append(f"/healthz on a full disk: {status} {health}")
        # One more charge, and each other write route once.
        probe_player = players[0]
        _, _, bought = call("POST", f"{base}/emulator/v1/devices/{probe_player.device}/purchases",
                            {"productId": "coins100", "appAccountToken": probe_order, "includeAppReceipt": False})
        with tally.lock:
            tally.pending.append((probe_player, bought["signedTransaction"]))
        for name, writes, status, code, retry_after, written in probe_other_write_routes(
                base, probe_player.name, probe_player.token, bought["signedTransaction"]):
            figures.setdefault("other_write_routes", []).append(
                f"{name}: {status} {code} Retry-After={retry_after}" + ("" if written is None else f" written={written}"))
            unavailable = status == 503 and code == "storage_unavailable" and retry_after is not None
            if written is False or status == 500 or (status == 503 and not unavailable) \
                    or (writes and not unavailable and written is None):
                failures.append(f"{name} on a full disk: {status} {code} Retry-After={retry_after} written={written}")

        time.sleep(max(0.0, options.fault_seconds - (time.monotonic() - full_at)))
        log_end = server.log_path.stat().st_size
        fault_seconds = time.monotonic() - full_at
        requests = tally.count(routes=("orders", "purchases")) - requests_before
        answered_503 = tally.count(status=503)
        lines = log_lines(server.log_path, log_start, log_end)
        repeated = [line for line in lines if "repeated" in line]
        figures["fault_seconds"] = round(fault_seconds, 1)
        figures["requests_during_fault"] = requests
        figures["answered_503"] = answered_503
        figures["log_lines_during_fault"] = len(lines)
        figures["repeated_count_lines"] = len(repeated)
        if repeated:
            figures["a_count_line"] = repeated[-1][:300]
        if requests < 200:
            failures.append(f"only {requests} requests during the fault: no load")
        # A line per distinct failure per 10 s, a few kinds of failure (routes, workers).
        if len(lines) > 20 * (fault_seconds / 10 + 2):
            failures.append(f"{len(lines)} log lines in {fault_seconds:.0f} s for {requests} requests: a flood")
        if not repeated:
            failures.append("no `repeated N times` line during the fault")

        # Free the space: the server must serve again by itself.
        filler.unlink()
        freed_at = time.monotonic()
        while time.monotonic() - freed_at < 60:
            status, _, _ = call("GET", base + "/healthz")
            if status == 200:
                break
            time.sleep(0.1)
        else:
            failures.append("/healthz not 200 within 60 s of freeing the space")
        figures["recovery_seconds"] = round(time.monotonic() - freed_at, 2)
        stop.set()
        for player in players:
            player.join(timeout=60)

        # The SDK reports again what it could not (its journal), until acknowledged.
        with tally.lock:
            pending = list(tally.pending)
            tally.pending.clear()
        figures["reported_again"] = len(pending)
        for player, jws in pending:
            for _ in range(20):
                if player.report(jws):
                    break
                time.sleep(0.5)
            else:
                failures.append(f"a charge of {player.name} is not acknowledged after freeing the space")
        problems, charges = check_exactly_once(base, players)
        figures["charges"] = charges
        figures["exactly_once_problems"] = len(problems)
        failures.extend(problems[:20])
        if tally.bad:
            failures.extend(f"an answer that breaks the rules: {bad}" for bad in tally.bad)
        report = server.crash_report()
        if report:
            failures.append(report)
    except StopIteration:
        pass
    finally:
        stop.set()
        if server:
            server.stop()
        subprocess.run(["umount", str(mount)], check=False)
        if options.keep or failures:
            print(f"storage_faults: work directory kept: {work} (server.log)")
        else:
            shutil.rmtree(work, ignore_errors=True)
    for key, value in figures.items():
        if isinstance(value, list):
            print(f"  {key}:")
            for item in value:
                print(f"    {item}")
        else:
            print(f"  {key}: {value}")
    if failures:
        print("storage_faults: FAILED")
        for failure in failures:
            print(f"  - {failure}")
        return 1
    print("storage_faults: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

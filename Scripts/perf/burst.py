#!/usr/bin/env python3
"""Launch-day burst against a running `storekeeper serve --dev` (docs/PERFORMANCE.md, "Load held").

    Scripts/perf/burst.py --url http://127.0.0.1:8080 [--seconds 60] [--factor 10]
    Scripts/perf/burst.py --binary .build/debug/storekeeper --seconds 3   # starts its own server (CI)

1. Idle: the server's memory (VmRSS and VmHWM of /proc/PID/status).
2. Calibration: --concurrency workers create orders (POST /v1/orders, one ledger write each)
   back to back for --calibrate-seconds; the orders acknowledged per second are the
   sustainable rate R (or --rate R skips this).
3. Burst: orders offered at --factor x R for --seconds, open loop (each at its scheduled time
   whatever the answers before it), over --connections keep-alive connections opened
   beforehand (an order due while every one of them waits for an answer is not sent, and
   counted `not_sent`: the generator's limit, not the server's). Every answer is counted:
   201 accepted, 503 `overloaded` shed, anything else an error; latency is from the request
   written to the answer read. The server's VmRSS is sampled every 0.5 s.
4. Recovery: from the end of the burst, on a connection of its own, one order at a time
   (while the burst's last answers drain) until 20 in a row are accepted: the recovery time
   is when the first of them was sent. Then R/2 for --recovery-seconds: shed and p99 there.
5. After: the server's memory 5 s after the load.
6. Ledger cross-check: every order acknowledged (201) is looked up in the ledger through the
   admin API (GET /v1/admin/players/{id}/orders, every page); `lost_acknowledged` counts the
   ones missing (must be 0), `unacknowledged_in_ledger` the ones the ledger holds that no 201
   acknowledged (only answers lost to errors or timeouts may make them; a shed order is never
   created).

The last line of output is a JSON summary. Exit status 1 when an acknowledged order is lost or
a shed answer lacks `Retry-After`. The generator is one Python process: `offered_per_second` is
what was asked and `sent_per_second` what it managed; read the figures with both.

With `--generator wrk` the burst (step 3) is sent by wrk (burst.lua beside this script) on
--wrk-threads threads over --connections connections, open loop as well: each thread offers
its share of the rate on a schedule, and the next connection whose answer arrives takes the
next order due (one more than a second overdue is counted `not_sent`); its latency
percentiles are of every answer, accepted and shed. Both generators report their own CPU seconds during the burst
(`generator_cpu_seconds`) beside the server's (`server_cpu_seconds`).
"""

import argparse
import asyncio
import base64
import hashlib
import hmac
import json
import os
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from urllib.parse import urlsplit


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def player_token(player: str, secret: str, lifetime: int = 7200) -> str:
    """An HS256 player token, as the game's login server issues it."""
    header = b64url(b'{"alg":"HS256","typ":"JWT"}')
    claims = b64url(json.dumps({"exp": int(time.time()) + lifetime, "sub": player}, separators=(",", ":")).encode())
    signing_input = f"{header}.{claims}"
    signature = hmac.new(secret.encode(), signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{b64url(signature)}"


def memory(pid):
    """VmRSS and VmHWM of `pid` in MiB, or None when it cannot be read."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/status") as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
        return {key: round(int(fields[key].split()[0]) / 1024, 1) for key in ("VmRSS", "VmHWM")}
    except (OSError, KeyError, ValueError):
        return None


def cpu_seconds(pid):
    """The CPU time (user and system) `pid` has used, in seconds, or None."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def listening_pid(port):
    """The pid of the process listening on 127.0.0.1:`port`, from `ss -ltnp`; None if unknown."""
    try:
        output = subprocess.run(["ss", "-ltnpH", f"sport = :{port}"], capture_output=True, text=True).stdout
    except OSError:
        return None
    marker = "pid="
    if marker not in output:
        return None
    digits = output.split(marker, 1)[1].split(",", 1)[0]
    return int(digits) if digits.isdigit() else None


def percentile(values, share):
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000, 1)


class Connection:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def request(self, method, path, headers, body=b""):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(body)}\r\n"
        head += "".join(f"{name}: {value}\r\n" for name, value in headers.items()) + "\r\n"
        try:
            self.writer.write(head.encode() + body)
            await self.writer.drain()
            status_line = await self.reader.readline()
            if not status_line:
                raise ConnectionError("closed")
            status = int(status_line.split()[1])
            answer_headers = {}
            while True:
                line = await self.reader.readline()
                if line in (b"\r\n", b"\n", b""):
                    break
                name, _, value = line.decode("latin-1").partition(":")
                answer_headers[name.strip().lower()] = value.strip()
            length = int(answer_headers.get("content-length", "0"))
            data = await self.reader.readexactly(length) if length else b""
            if answer_headers.get("connection", "").lower() == "close":
                self.close()
            return status, answer_headers, data
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            self.close()
            raise ConnectionError("broken")

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Run:
    def __init__(self, arguments):
        self.arguments = arguments
        parts = urlsplit(arguments.url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        run_id = "%06x" % random.getrandbits(24)
        self.players = [f"burst-{run_id}-{index}" for index in range(arguments.players)]
        self.tokens = {player: player_token(player, arguments.player_secret) for player in self.players}
        self.acknowledged = []  # (player, orderId)
        self.idle = []

    def connection(self):
        return self.idle.pop() if self.idle else Connection(self.host, self.port)

    async def open_connections(self, count):
        """Opens `count` connections for the burst (a GET /v1/products on each)."""
        while len(self.idle) < count:
            connection = Connection(self.host, self.port)
            await connection.request("GET", "/v1/products", {})
            self.idle.append(connection)

    async def order(self, tally, connection=None, pooled=True):
        """One POST /v1/orders on `connection` (one of the pool's when None); its outcome goes
        into `tally`. A pooled connection goes back to the pool, broken or not (a broken one
        reconnects on its next request)."""
        player = random.choice(self.players)
        connection = connection or self.connection()
        try:
            return await self.send_order(tally, connection, player)
        finally:
            if pooled:
                self.idle.append(connection)

    async def send_order(self, tally, connection, player):
        start = time.monotonic()
        try:
            status, headers, body = await asyncio.wait_for(
                connection.request(
                    "POST", "/v1/orders",
                    {"Authorization": f"Bearer {self.tokens[player]}", "Content-Type": "application/json"},
                    b'{"productId":"coins100"}'),
                timeout=30)
        except (ConnectionError, asyncio.TimeoutError) as error:
            connection.close()
            tally["errors"] += 1
            tally["error_kinds"][type(error).__name__ + str(error)] = tally["error_kinds"].get(type(error).__name__ + str(error), 0) + 1
            return None
        elapsed = time.monotonic() - start
        if status == 201:
            tally["accepted"] += 1
            tally["latencies"].append(elapsed)
            self.acknowledged.append((player, json.loads(body)["orderId"]))
        elif status == 503 and b'"overloaded"' in body:
            tally["shed"] += 1
            if "retry-after" not in headers:
                tally["shed_without_retry_after"] += 1
        else:
            tally["errors"] += 1
            tally["statuses"][status] = tally["statuses"].get(status, 0) + 1
        return status

    @staticmethod
    def tally():
        return {
            "accepted": 0, "shed": 0, "errors": 0, "error_kinds": {}, "shed_without_retry_after": 0, "latencies": [],
            "sent": 0, "statuses": {},
        }

    async def closed_loop(self, seconds, workers):
        tally = self.tally()
        deadline = time.monotonic() + seconds

        async def worker():
            while time.monotonic() < deadline:
                tally["sent"] += 1
                await self.order(tally)

        start = time.monotonic()
        await asyncio.gather(*(worker() for _ in range(workers)))
        tally["seconds"] = time.monotonic() - start
        return tally

    async def open_loop(self, rate, seconds, samples=None, pid=None):
        """Offers `rate` orders a second for `seconds`, at most --connections at once."""
        tally = self.tally()
        tally["not_sent"] = 0
        pending = set()
        start = time.monotonic()
        count = int(rate * seconds)
        next_sample = start
        for index in range(count):
            due = start + index / rate
            now = time.monotonic()
            if due > now:
                await asyncio.sleep(due - now)
            if samples is not None and time.monotonic() >= next_sample:
                samples.append(memory(pid))
                next_sample += 0.5
            if not self.idle:
                tally["not_sent"] += 1
                continue
            tally["sent"] += 1
            task = asyncio.ensure_future(self.order(tally, self.idle.pop()))
            pending.add(task)
            task.add_done_callback(pending.discard)
        offered_end = time.monotonic()
        tally["seconds"] = offered_end - start
        return tally, offered_end, pending

    async def wrk_burst(self, rate, seconds, samples, pid):
        """Offers up to `rate` orders a second for `seconds` with wrk and burst.lua; its tally
        (latencies of every answer, as wrk measured them) and when it ended."""
        with tempfile.TemporaryDirectory(prefix="storekeeper-burst-wrk-") as directory:
            tokens = os.path.join(directory, "tokens")
            with open(tokens, "w") as file:
                file.writelines(f"{player} {token}\n" for player, token in self.tokens.items())
            output = os.path.join(directory, "wrk.json")
            interval_ms = self.arguments.wrk_threads * 1000 / rate
            script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "burst.lua")
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            process = subprocess.Popen(
                ["wrk", "-t", str(self.arguments.wrk_threads), "-c", str(self.arguments.connections),
                 "-d", f"{max(1, round(seconds))}s", "--timeout", "30s", "-s", script, self.arguments.url, "--",
                 tokens, f"{interval_ms:.4f}", output],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            while process.poll() is None:
                samples.append(memory(pid))
                await asyncio.sleep(0.5)
            end = time.monotonic()
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if process.returncode != 0 or not os.path.exists(output):
                raise SystemExit(f"wrk failed ({process.returncode}): {process.stderr.read()}")
            with open(output) as file:
                totals = json.load(file)
            with open(output + ".acknowledged") as file:
                for line in file:
                    player, _, order_id = line.strip().partition(" ")
                    self.acknowledged.append((player, order_id))
        tally = self.tally()
        tally.update(sent=totals["requests"], accepted=totals["accepted"], shed=totals["shed"],
                     shed_without_retry_after=totals["shedWithoutRetryAfter"], seconds=totals["seconds"],
                     not_sent=totals["notSent"])
        tally["errors"] = totals["other"] + sum(totals["socketErrors"].values())
        tally["error_kinds"] = {kind: count for kind, count in totals["socketErrors"].items() if count}
        tally["latency_all_answers_ms"] = totals["latencyMs"]
        tally["generator_cpu_seconds"] = round(
            after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2)
        return tally, end

    async def ledger_orders(self, player):
        """Every order id the ledger holds for `player` (admin API, every page)."""
        connection = Connection(self.host, self.port)
        ids, cursor = set(), None
        while True:
            path = f"/v1/admin/players/{player}/orders?limit=500" + (f"&cursor={cursor}" if cursor else "")
            status, _, body = await connection.request(
                "GET", path, {"Authorization": f"Bearer {self.arguments.admin_key}"})
            if status != 200:
                raise RuntimeError(f"GET {path}: HTTP {status}")
            page = json.loads(body)
            ids.update(order["orderId"] for order in page["orders"])
            cursor = page.get("nextCursor")
            if not cursor:
                connection.close()
                return ids


def summary(tally):
    seconds = tally.get("seconds") or 1
    return {
        "sent": tally["sent"],
        "accepted": tally["accepted"],
        "shed": tally["shed"],
        "errors": tally["errors"],
        "error_kinds": tally["error_kinds"],
        "other_statuses": tally["statuses"],
        "not_sent": tally.get("not_sent", 0),
        "shed_without_retry_after": tally["shed_without_retry_after"],
        "sent_per_second": round(tally["sent"] / seconds, 1),
        "accepted_per_second": round(tally["accepted"] / seconds, 1),
        "p50_ms": percentile(tally["latencies"], 0.50),
        "p99_ms": percentile(tally["latencies"], 0.99),
        "max_ms": percentile(tally["latencies"], 1.0),
        **{key: tally[key] for key in ("latency_all_answers_ms", "generator_cpu_seconds", "server_cpu_seconds")
           if key in tally},
    }


async def main(arguments):
    run = Run(arguments)
    pid = arguments.server_pid or listening_pid(run.port)
    log = lambda text: print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)
    result = {"url": arguments.url, "server_pid": pid, "memory_mib": {"idle": memory(pid)}}

    rate = arguments.rate
    if rate is None:
        log(f"calibrating: {arguments.concurrency} workers for {arguments.calibrate_seconds} s")
        calibration = await run.closed_loop(arguments.calibrate_seconds, arguments.concurrency)
        result["calibration"] = summary(calibration)
        rate = max(1.0, calibration["accepted"] / calibration["seconds"])
    result["sustainable_per_second"] = round(rate, 1)
    offered = rate * arguments.factor
    result["offered_per_second"] = round(offered, 1)

    log(f"burst: {offered:.0f} orders/s ({arguments.factor}x {rate:.0f}/s) for {arguments.seconds} s")
    probe_connection = Connection(run.host, run.port)
    await probe_connection.request("GET", "/v1/products", {})
    samples = []
    server_cpu = cpu_seconds(pid)
    if arguments.generator == "wrk":
        burst, burst_end = await run.wrk_burst(offered, arguments.seconds, samples, pid)
        pending = set()
    else:
        await run.open_connections(arguments.connections)
        generator_cpu = time.process_time()
        burst, burst_end, pending = await run.open_loop(offered, arguments.seconds, samples, pid)
        burst["generator_cpu_seconds"] = round(time.process_time() - generator_cpu, 2)
    if server_cpu is not None:
        burst["server_cpu_seconds"] = round(cpu_seconds(pid) - server_cpu, 2)

    probe, streak_start, streak = Run.tally(), None, 0
    while streak < 20:
        sent_at = time.monotonic()
        if await run.order(probe, probe_connection, pooled=False) == 201:
            streak_start = streak_start or sent_at
            streak += 1
        else:
            streak_start, streak = None, 0
    result["recovery_seconds"] = round(max(0.0, streak_start - burst_end), 3)
    if pending:
        await asyncio.gather(*pending)
    result["burst"] = summary(burst)
    result["burst"]["drained_seconds"] = round(time.monotonic() - burst_end, 2)
    peaks = [sample["VmRSS"] for sample in samples if sample]
    result["memory_mib"]["burst_peak_rss"] = max(peaks) if peaks else None
    log(f"recovered {result['recovery_seconds']} s after the burst; {rate / 2:.0f}/s for {arguments.recovery_seconds} s")
    if arguments.generator == "wrk":
        # The calibration's connections sat idle through the burst, past the server's idle
        # timeout (it closed them): new ones for the orders after it.
        for connection in run.idle:
            connection.close()
        run.idle.clear()
        await run.open_connections(arguments.connections)
    after, _, pending = await run.open_loop(rate / 2, arguments.recovery_seconds)
    if pending:
        await asyncio.gather(*pending)
    result["after_burst"] = summary(after)

    await asyncio.sleep(5)
    result["memory_mib"]["after"] = memory(pid)

    log("cross-checking the acknowledged orders with the ledger")
    acknowledged = {}
    for player, order_id in run.acknowledged:
        acknowledged.setdefault(player, set()).add(order_id)
    lost = unacknowledged = 0
    for player in run.players:
        in_ledger = await run.ledger_orders(player)
        mine = acknowledged.get(player, set())
        lost += len(mine - in_ledger)
        unacknowledged += len(in_ledger - mine)
    result["acknowledged"] = len(run.acknowledged)
    result["lost_acknowledged"] = lost
    result["unacknowledged_in_ledger"] = unacknowledged
    shed_without = burst["shed_without_retry_after"] + after["shed_without_retry_after"]
    print(json.dumps(result))
    return 1 if lost or shed_without else 0


def start_server(binary, directory):
    """Starts `binary serve --dev` on a free loopback port with a fresh SQLite ledger in
    `directory`; its process and URL once /healthz answers (at most 120 s)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = open(os.path.join(directory, "server.log"), "w")
    process = subprocess.Popen(
        [binary, "serve", "--dev", "--port", str(port), "--database", f"sqlite:{directory}/ledger.sqlite",
         "--dev-data-dir", os.path.join(directory, "dev")],
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return process, url
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"{binary} serve --dev did not start (log: {directory}/server.log)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    parser.add_argument("--binary", help="start this storekeeper's `serve --dev` (fresh SQLite ledger) and use it")
    parser.add_argument("--seconds", type=float, default=60, help="how long the burst lasts (default 60)")
    parser.add_argument("--factor", type=float, default=10, help="the burst's rate over the sustainable one")
    parser.add_argument("--rate", type=float, help="the sustainable rate (orders/s); default: calibrated")
    parser.add_argument("--calibrate-seconds", type=float, default=10)
    parser.add_argument("--concurrency", type=int, default=32, help="the calibration's workers")
    parser.add_argument("--recovery-seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=512, help="the burst's connections (requests open at once)")
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--generator", choices=("python", "wrk"), default="python",
                        help="what sends the burst: this process (default) or wrk (apt-get install wrk)")
    parser.add_argument("--wrk-threads", type=int, default=1, help="wrk's threads (--generator wrk)")
    parser.add_argument("--server-pid", type=int, help="default: the process listening on the URL's port")
    parser.add_argument("--player-secret", default=os.environ.get("STOREKEEPER_PLAYER_TOKEN_SECRET", "dev-player-secret"))
    parser.add_argument("--admin-key", default=os.environ.get("STOREKEEPER_ADMIN_KEY", "dev-admin-key"))
    arguments = parser.parse_args()
    if arguments.generator == "wrk" and shutil.which("wrk") is None:
        parser.error("--generator wrk needs wrk on the PATH (Debian: apt-get install wrk)")
    if arguments.binary is None:
        sys.exit(asyncio.run(main(arguments)))
    with tempfile.TemporaryDirectory(prefix="storekeeper-burst-") as directory:
        server, arguments.url = start_server(arguments.binary, directory)
        arguments.server_pid = server.pid
        try:
            status = asyncio.run(main(arguments))
        finally:
            server.terminate()
            server.wait(timeout=30)
    sys.exit(status)

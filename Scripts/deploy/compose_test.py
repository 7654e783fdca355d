#!/usr/bin/env python3
"""The staging stack (deploy/compose.yaml) under podman-compose, on the host's network: two
StoreKeeper instances on one PostgreSQL, the standalone emulator as Apple.

    Scripts/deploy/compose_test.py [--purchases 12] [--players 4] [--keep]

Needs the image (Scripts/deploy/image.sh) and podman-compose (installed from PyPI into
.build/deploy-venv when --podman-compose is not given). PostgreSQL: $POSTGRES_IMAGE, else
localhost/storekeeper-postgres:15, built from deploy/postgres on the Debian base when missing.

Scenario (ports chosen free at run time, every service on 127.0.0.1):
 1. `up -d`; both instances healthy.
 2. N purchases through instance A (order at A, payment on the player's emulated phone,
    report at A); then each player's wallet and timeline read through instance B.
 3. A purchase paid but not yet reported when A is killed (`podman kill`): the player
    reports it through B. N more purchases through B while A is down.
 4. `podman start` A; some of the purchases reported again through A (already_delivered);
    N/2 more purchases through A; the emulator's notifications that failed while A was down
    are retried until every one is delivered.
 5. The check: every charge in the emulator's ledger (Apple's ground truth) has exactly one
    `delivered` event, for the player whose phone paid, asked of both instances; each
    player's wallet (through A and through B) is 100 coins per charge of their phone; the
    timelines hold no delivery the ledger does not.
 6. `down` and `up -d` again on the same volumes: the same check, then purchases through
    both instances and the check once more.
Always `down -v` at the end (unless --keep). Prints the figures; exits non-zero on a failure.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from podman_tools import DEBIAN_BASE, IMAGE, ROOT, free_port, http_json, logs, podman, require_image, \
    image_exists, wait_until_ok

COMPOSE_FILES = [ROOT / "deploy" / "compose.yaml", ROOT / "deploy" / "compose.host.yaml"]
PODMAN_COMPOSE = "podman-compose==1.6.0"
PLAYER_SECRET = "compose-test-player-secret"
ADMIN_KEY = "compose-test-admin-key"
PRODUCT, COINS = "coins100", 100


def log(message):
    print(f"compose_test: {message}", flush=True)


class Stack:
    def __init__(self, podman_compose, work):
        self.podman_compose = podman_compose
        self.work = work
        self.project = f"sk-compose-test-{os.getpid()}"
        self.ports = {name: free_port() for name in ("POSTGRES_PORT", "EMULATOR_PORT", "STOREKEEPER_A_PORT",
                                                      "STOREKEEPER_B_PORT")}
        self.environment = dict(
            os.environ,
            STOREKEEPER_IMAGE=IMAGE,
            POSTGRES_IMAGE=os.environ.get("POSTGRES_IMAGE", "localhost/storekeeper-postgres:15"),
            BIND_ADDRESS="127.0.0.1", POSTGRES_HOST="127.0.0.1", EMULATOR_HOST="127.0.0.1",
            STOREKEEPER_A_HOST="127.0.0.1",
            STOREKEEPER_PLAYER_TOKEN_SECRET=PLAYER_SECRET, STOREKEEPER_ADMIN_KEY=ADMIN_KEY,
            POSTGRES_PASSWORD="compose-test-postgres",
            # Apple's retry schedule (1 h, 12 h, …) in thousandths: a notification refused
            # while instance A is down comes again 3.6 s later.
            EMULATOR_TIME_SCALE="0.001",
            **{name: str(port) for name, port in self.ports.items()},
        )
        self.a = f"http://127.0.0.1:{self.ports['STOREKEEPER_A_PORT']}"
        self.b = f"http://127.0.0.1:{self.ports['STOREKEEPER_B_PORT']}"
        self.emulator = f"http://127.0.0.1:{self.ports['EMULATOR_PORT']}"
        self.compose_log = work / "podman-compose.log"

    def compose(self, *arguments, check=True):
        command = [self.podman_compose, "-p", self.project]
        for file in COMPOSE_FILES:
            command += ["-f", str(file)]
        command += list(arguments)
        with open(self.compose_log, "a") as output:
            output.write(f"\n$ {' '.join(command)}\n")
            output.flush()
            result = subprocess.run(command, env=self.environment, stdout=output, stderr=subprocess.STDOUT,
                                    timeout=600)
        if check and result.returncode != 0:
            raise AssertionError(f"podman-compose {' '.join(arguments)} exited {result.returncode}; "
                                 f"see {self.compose_log}:\n{self.compose_log.read_text()[-3000:]}")

    def container(self, service):
        names = podman("ps", "--all", "--filter", f"label=com.docker.compose.project={self.project}",
                       "--filter", f"label=com.docker.compose.service={service}", "--format", "{{.Names}}").split()
        if len(names) != 1:
            raise AssertionError(f"service {service}: containers {names}")
        return names[0]

    def still_running(self, service):
        def check():
            name = self.container(service)
            state = podman("container", "inspect", "--format", "{{.State.Status}}", name, check=False)
            if state not in ("running", "created", "configured"):
                return f"{name} is {state}:\n{logs(name)[-3000:]}"
            return None
        return check

    def wait_healthy(self, services=("storekeeper-a", "storekeeper-b"), seconds=120):
        urls = {"storekeeper-a": self.a, "storekeeper-b": self.b}
        for service in services:
            wait_until_ok(urls[service] + "/healthz", seconds, self.still_running(service))

    def up(self):
        started = time.monotonic()
        self.compose("up", "-d")
        self.wait_healthy()
        return time.monotonic() - started

    def down(self, volumes=False):
        self.compose("down", *(["-v"] if volumes else []), check=False)

    def remove_leftovers(self):
        """Whatever `down -v` left of this project (containers, volumes)."""
        for label in ("com.docker.compose.project", "io.podman.compose.project"):
            for name in podman("ps", "--all", "--filter", f"label={label}={self.project}", "--format",
                               "{{.Names}}", check=False).split():
                podman("rm", "--force", "--volumes", name, check=False)
            for name in podman("volume", "ls", "--filter", f"label={label}={self.project}", "--format",
                               "{{.Name}}", check=False).split():
                podman("volume", "rm", "--force", name, check=False)

    def dump_logs(self):
        for service in ("storekeeper-a", "storekeeper-b", "emulator", "postgres"):
            try:
                name = self.container(service)
            except AssertionError:
                continue
            log(f"--- {name} (last lines)")
            print("\n".join(logs(name).splitlines()[-25:]), flush=True)


class Players:
    """Players, each with a phone on the emulator; what was bought and reported."""

    def __init__(self, stack, count):
        self.stack = stack
        self.names = [f"player{index}" for index in range(count)]
        self.tokens = {name: podman("run", "--rm", "--pull=never", "--network", "host", IMAGE, "token",
                                    "--player", name, "--secret", PLAYER_SECRET, "--lifetime", "86400")
                       for name in self.names}
        self.reports = []  # (player, order id, signed transaction) of every acknowledged purchase
        self.bought = 0

    def order_and_pay(self, server, player):
        token = self.tokens[player]
        order = http_json("POST", server + "/v1/orders", {"productId": PRODUCT}, token=token, expect=(200, 201))
        paid = http_json("POST", f"{self.stack.emulator}/emulator/v1/devices/phone-{player}/purchases",
                         {"productId": PRODUCT, "appAccountToken": order["appAccountToken"]})
        return order["orderId"], paid["signedTransaction"]

    # A new purchase is acknowledged either way: `delivered` by this report, or
    # `already_delivered` when Apple's notification (the emulator's, to instance A) came first.
    def report(self, server, player, order_id, signed, expect_status=("delivered", "already_delivered")):
        answer = http_json("POST", server + "/v1/purchases", {"orderId": order_id, "signedTransaction": signed},
                           token=self.tokens[player], expect=(200, 201))
        if answer.get("status") not in expect_status:
            raise AssertionError(f"report of {player}'s order {order_id} to {server}: {answer}")
        return answer

    def buy(self, server, count):
        for _ in range(count):
            player = self.names[self.bought % len(self.names)]
            order_id, signed = self.order_and_pay(server, player)
            self.report(server, player, order_id, signed)
            self.reports.append((player, order_id, signed))
            self.bought += 1


def refused_attempts(stack):
    notifications = http_json("GET", stack.emulator + "/emulator/v1/notifications")
    return sum(1 for n in notifications for a in n.get("attempts", []) if a.get("sendAttemptResult") != "SUCCESS")


def wait_for_refused_notification(stack, seconds=60):
    started = time.monotonic()
    while refused_attempts(stack) == 0:
        if time.monotonic() - started > seconds:
            raise AssertionError(f"no notification attempt failed in {seconds} s while instance A was down")
        time.sleep(0.5)
    return time.monotonic() - started


def settle_notifications(stack, seconds=90):
    """Waits until every notification the emulator issued was accepted by the server."""
    deadline = time.monotonic() + seconds
    while True:
        notifications = http_json("GET", stack.emulator + "/emulator/v1/notifications")
        pending = [n for n in notifications
                   if not any(a.get("sendAttemptResult") == "SUCCESS" for a in n.get("attempts", []))]
        if not pending:
            return len(notifications), refused_attempts(stack)
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(pending)} of {len(notifications)} notifications never accepted")
        time.sleep(0.5)


def check(stack, players, label):
    """Apple's charges against both instances' records; returns the figures."""
    problems = []
    charges = http_json("GET", stack.emulator + "/emulator/v1/ledger")
    per_phone = Counter(charge["deviceId"] for charge in charges)
    servers = [stack.a, stack.b]
    for index, charge in enumerate(charges):
        history = http_json("GET", f"{servers[index % 2]}/v1/admin/transactions/{charge['transactionId']}",
                            token=ADMIN_KEY)
        deliveries = [event for event in history["events"] if event["type"] == "delivered"]
        owner = charge["deviceId"].removeprefix("phone-")
        if len(deliveries) != 1 or deliveries[0].get("playerId") != owner:
            problems.append(f"transaction {charge['transactionId']} of {owner}'s phone: deliveries to "
                            f"{[event.get('playerId') for event in deliveries]}")
    delivered_events = 0
    for player in players.names:
        expected = COINS * per_phone[f"phone-{player}"]
        for server in servers:
            coins = http_json("GET", server + "/v1/players/me/wallet",
                              token=players.tokens[player])["balances"].get("coins", 0)
            if coins != expected:
                problems.append(f"{player}'s wallet through {server}: {coins} coins, {expected} expected")
        timeline, cursor = [], None
        while True:
            page = http_json("GET", f"{stack.b}/v1/admin/players/{player}/timeline?limit=500"
                             + (f"&cursor={cursor}" if cursor else ""), token=ADMIN_KEY)
            timeline += page["events"]
            cursor = page.get("nextCursor")
            if not cursor:
                break
        delivered = Counter(event["transactionId"] for event in timeline if event["type"] == "delivered")
        delivered_events += sum(delivered.values())
        mine = {charge["transactionId"] for charge in charges if charge["deviceId"] == f"phone-{player}"}
        if set(delivered) != mine or any(count != 1 for count in delivered.values()):
            problems.append(f"{player}'s timeline: deliveries {dict(delivered)}, charges {sorted(mine)}")
    if len(players.reports) != len(charges):
        problems.append(f"{len(players.reports)} purchases acknowledged, {len(charges)} charges")
    if problems:
        raise AssertionError(f"{label}:\n  " + "\n  ".join(problems))
    log(f"{label}: {len(charges)} charges, {delivered_events} deliveries, each exactly once, to the payer; "
        f"wallets equal through A and B")
    return len(charges), delivered_events


def ensure_postgres_image(environment):
    name = environment["POSTGRES_IMAGE"]
    if image_exists(name):
        return
    if not name.startswith("localhost/"):
        raise SystemExit(f"no image {name}")
    if not image_exists(DEBIAN_BASE):
        raise SystemExit(f"no {DEBIAN_BASE}: run Scripts/deploy/image.sh first")
    log(f"building {name} from deploy/postgres on {DEBIAN_BASE}")
    podman("build", "--pull=never", "--network", "host", "--format", "docker", "--quiet",
           "--build-arg", f"BASE={DEBIAN_BASE}", "-t", name, ROOT / "deploy" / "postgres", timeout=900)


def podman_compose_command(given):
    if given:
        return given
    venv = ROOT / ".build" / "deploy-venv"
    subprocess.check_call([sys.executable, str(ROOT / "Scripts" / "install_venv.py"), str(venv), PODMAN_COMPOSE])
    return str(venv / "bin" / "podman-compose")


def scenario(stack, players_count, purchases, figures):
    figures["first up: start-to-healthy (both instances)"] = f"{stack.up():.1f} s"
    players = Players(stack, players_count)

    # 2. Through A; read through B.
    players.buy(stack.a, purchases)
    for player in players.names:
        http_json("GET", stack.b + "/v1/players/me/wallet", token=players.tokens[player])
        http_json("GET", f"{stack.b}/v1/admin/players/{player}/timeline", token=ADMIN_KEY)
    check(stack, players, "after buying through A, read through B")

    # 3. A killed with a purchase paid but unreported; reported through B; more through B.
    player = players.names[0]
    order_id, signed = players.order_and_pay(stack.a, player)
    a = stack.container("storekeeper-a")
    podman("kill", a)
    killed = time.monotonic()
    try:
        http_json("GET", stack.a + "/healthz", timeout=2)
        raise AssertionError("instance A still answers after podman kill")
    except OSError:
        pass
    log(f"killed {a} (podman kill) with {player}'s payment unreported; reporting it through B")
    players.report(stack.b, player, order_id, signed)
    players.reports.append((player, order_id, signed))
    players.buy(stack.b, purchases)
    # A stays down until Apple's side has seen it down: a notification attempt failed (the
    # emulator gives a connection about 5 s before it records SOCKET_ISSUE).
    waited = wait_for_refused_notification(stack)
    figures["instance A down"] = f"{time.monotonic() - killed:.1f} s (a refused notification after {waited:.1f} s)"

    # 4. A again.
    started = time.monotonic()
    podman("start", a)
    stack.wait_healthy(["storekeeper-a"])
    figures["instance A restarted: start-to-healthy"] = f"{time.monotonic() - started:.1f} s"
    for player, order_id, signed in players.reports[::5]:
        players.report(stack.a, player, order_id, signed, expect_status=("already_delivered",))
    players.buy(stack.a, purchases // 2)
    notifications, refused = settle_notifications(stack)
    figures["notifications accepted (attempts refused while A was down, retried)"] = \
        f"{notifications} ({refused} refused attempts)"
    charges, deliveries = check(stack, players, "after killing A, buying through B and restarting A")
    figures["purchases before down/up"] = f"{charges} charged, {deliveries} delivered, 0 lost, 0 twice"

    # 6. down, up on the same volumes.
    started = time.monotonic()
    stack.down()
    figures["down"] = f"{time.monotonic() - started:.1f} s"
    figures["second up on the same volumes: start-to-healthy"] = f"{stack.up():.1f} s"
    check(stack, players, "after down and up on the same volumes")
    players.buy(stack.a, purchases // 2)
    players.buy(stack.b, purchases // 2)
    settle_notifications(stack)
    charges, deliveries = check(stack, players, "after buying through both again")
    figures["purchases in all"] = f"{charges} charged, {deliveries} delivered, 0 lost, 0 twice"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--purchases", type=int, default=12, help="purchases per phase (default 12)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--podman-compose", default=None, help="the podman-compose command (default: from PyPI)")
    parser.add_argument("--keep", action="store_true", help="leave the stack up and its volumes (debugging)")
    arguments = parser.parse_args()

    require_image()
    command = podman_compose_command(arguments.podman_compose)
    work = Path(tempfile.mkdtemp(prefix="storekeeper-compose-test-"))
    stack = Stack(command, work)
    ensure_postgres_image(stack.environment)
    log(f"project {stack.project}, ports {stack.ports}, podman-compose log {stack.compose_log}")
    figures = {}
    started = time.monotonic()
    failed = False
    try:
        scenario(stack, arguments.players, arguments.purchases, figures)
    except (AssertionError, SystemExit, OSError, subprocess.SubprocessError) as failure:
        failed = True
        log(f"FAILED: {failure}")
        stack.dump_logs()
    finally:
        if not arguments.keep:
            down_started = time.monotonic()
            stack.down(volumes=True)
            stack.remove_leftovers()
            figures["down -v"] = f"{time.monotonic() - down_started:.1f} s"
    figures["scenario wall time"] = f"{time.monotonic() - started:.1f} s"
    width = max(len(key) for key in figures)
    for key, value in figures.items():
        print(f"  {key.ljust(width)}  {value}")
    if failed:
        log(f"failed; podman-compose's output is in {stack.compose_log}")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    log("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

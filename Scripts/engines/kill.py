"""The pipeline's promises through the C ABI, with a real host process (kill_host.c).

Kill: host processes (one per player, each on its own emulated phone and data directory)
buy coins in a loop and are SIGKILLed at random moments, many times, each restarted on the
same data directory; then each is started once more and left to settle. After that, every
charge the emulator made (GET /emulator/v1/ledger, the ground truth) must be delivered
exactly once, to the player of the phone that paid: the server's history of the
transaction holds exactly one `delivered`, for that player, and each player's wallet holds
100 coins per charge of their phone, no more, no less.

Outage: the purchase server becomes unreachable for the game (a proxy in front of it stops
answering) right after it created the order, so Apple charges while the report cannot get
through; the host is killed while the server is down, restarted while it is still down,
and only polls. When the server comes back, the purchase is delivered without the game
doing anything else. (The emulator, Apple's side, stays up, as Apple does when a game's
server is down.)
"""

import json
import random
import socket
import subprocess
import threading
import time
import urllib.request

from devserver import DevServer


def get_json(url, token=None):
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def player_token(binary, player):
    return subprocess.run(
        [str(binary), "token", "--player", player, "--lifetime", "86400"], check=True, capture_output=True, text=True
    ).stdout.strip()


class Host:
    """kill_host.c for one player on one phone and data directory."""

    def __init__(self, program, work, server_url, emulator_url, name, token):
        self.program = program
        self.name = name
        self.output = open(work / f"{name}.log", "ab")
        self.environment = {
            "SK_SERVER_URL": server_url, "SK_EMULATOR_URL": emulator_url, "SK_DATA_DIR": str(work / name),
            "SK_DEVICE": f"phone-{name}", "SK_PLAYER": name, "SK_TOKEN": token, "PATH": "/usr/bin:/bin",
        }
        self.process = None

    def start(self, mode):
        self.process = subprocess.Popen(
            [str(self.program), mode], env=self.environment, stdout=self.output, stderr=subprocess.STDOUT
        )
        return self

    def kill(self):
        self.process.kill()  # SIGKILL: no handler, no flush, no sk_close
        self.process.wait()

    def settle(self, seconds=180):
        self.start("settle")
        return self.process.wait(timeout=seconds + 30) == 0


def check_exactly_once(server, players):
    """The emulator's charges against the server's history and wallets; returns problems."""
    problems = []
    charges = [charge for charge in get_json(server.url + "/emulator/v1/ledger")]
    for player, token in players.items():
        mine = [charge for charge in charges if charge["deviceId"] == f"phone-{player}"]
        for charge in mine:
            history = get_json(f"{server.url}/v1/admin/transactions/{charge['transactionId']}", "dev-admin-key")
            deliveries = [event for event in history["events"] if event["type"] == "delivered"]
            if len(deliveries) != 1 or deliveries[0].get("playerId") != player:
                problems.append(
                    f"transaction {charge['transactionId']} of {player}'s phone: deliveries "
                    f"{[event.get('playerId') for event in deliveries]}"
                )
        wallet = get_json(server.url + "/v1/players/me/wallet", token)
        coins = wallet["balances"].get("coins", 0)
        if coins != 100 * len(mine):
            problems.append(f"{player}: {coins} coins for {len(mine)} charges")
    return problems, len(charges)


def kill_test(program, work, binary, log, rounds=40, players=3, seed=None):
    seed = seed if seed is not None else random.randrange(1 << 30)
    chooser = random.Random(seed)
    log(f"kill test: {players} players, {rounds} kills each, seed {seed}")
    server = DevServer(binary, work / "kill-server").start()
    try:
        tokens = {f"killed{index}": player_token(binary, f"killed{index}") for index in range(players)}
        hosts = [Host(program, work, server.url, server.url, name, token) for name, token in tokens.items()]
        for round in range(rounds):
            for host in hosts:
                host.start("buy")
            time.sleep(chooser.uniform(0.3, 2.5))
            for host in hosts:
                time.sleep(chooser.uniform(0, 0.2))
                host.kill()
        for host in hosts:
            if not host.settle():
                return [f"{host.name} did not settle; see {host.output.name}"], 0
        problems, charges = check_exactly_once(server, tokens)
        log(f"kill test: {rounds * players} kills, {charges} charges, {len(problems)} problems (seed {seed})")
        return problems, charges
    finally:
        server.stop()


class OutageProxy:
    """A TCP proxy to the server that goes down (closes every connection, refuses new
    ones) once it has passed the answer to a `POST /v1/orders`, until `up()`."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.down = threading.Event()
        self.went_down = threading.Event()
        self.connections = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def up(self):
        self.down.clear()

    def _accept(self):
        while True:
            client, _ = self.listener.accept()
            if self.down.is_set():
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            with self.lock:
                self.connections += [client, upstream]
            order = threading.Event()
            threading.Thread(target=self._pipe, args=(client, upstream, order, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, order, True), daemon=True).start()

    def _pipe(self, source, destination, order, answers):
        try:
            while True:
                data = source.recv(65536)
                if not data or self.down.is_set():
                    break
                if not answers and data.startswith(b"POST /v1/orders"):
                    order.set()
                destination.sendall(data)
                if answers and order.is_set():
                    self._go_down()
                    break
        except OSError:
            pass
        finally:
            for end in (source, destination):
                try:
                    end.close()
                except OSError:
                    pass

    def _go_down(self):
        self.down.set()
        self.went_down.set()
        with self.lock:
            for connection in self.connections:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            self.connections.clear()


def outage_test(program, work, binary, log):
    server = DevServer(binary, work / "outage-server").start()
    try:
        proxy = OutageProxy(server.port)
        token = player_token(binary, "patient")
        host = Host(program, work, proxy.url, server.url, "patient", token)
        host.start("buy")
        if not proxy.went_down.wait(60):
            host.kill()
            return ["the host never created an order"]
        # Apple charges while the server is unreachable; wait for the charge, then kill.
        deadline = time.monotonic() + 30
        charged = []
        while not charged and time.monotonic() < deadline:
            charged = [c for c in get_json(server.url + "/emulator/v1/ledger") if c["deviceId"] == "phone-patient"]
            time.sleep(0.2)
        time.sleep(1.5)
        host.kill()
        if not charged:
            return ["the emulator never charged"]
        # Restarted while the server is still down: it only polls (settle mode), and the
        # server comes back a few seconds later.
        host.environment["SK_SETTLE_SECONDS"] = "90"
        host.start("settle")
        time.sleep(4)
        if host.process.poll() is not None:
            return ["the host settled while the server was down"]
        proxy.up()
        if host.process.wait(timeout=120) != 0:
            return [f"the purchase did not complete after the server came back; see {host.output.name}"]
        problems, charges = check_exactly_once(server, {"patient": token})
        log(f"outage test: {charges} charge(s) made while the server was down, {len(problems)} problems")
        return problems
    finally:
        server.stop()

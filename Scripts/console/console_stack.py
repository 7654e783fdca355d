"""The server a browser test signs in to: `storekeeper serve --dev` with staff accounts and data.

Starts `serve --dev` on a free port with a fresh ledger file and emulator directory, reads
the dev-admin password from the line it prints, adds staff accounts with `storekeeper staff
add` on the same ledger file, and makes purchases through the player API and the emulator's
device API, so that every console page has something to show.
"""

import base64
import hashlib
import hmac
import json
import re
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import quote
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from storekeeper_processes import Child, free_port, wait_until_serving  # noqa: E402

# The one line `serve --dev` prints about the console (docs/console.md).
CONSOLE_LINE = re.compile(r"Support console: (http://\S+) \(sign in as dev-admin, password (\S+)\)")

# The server's dev configuration (DevStackConfiguration.development, which a --config file
# replaces) with the owed queue listing a transaction as soon as the server learns of it,
# and no periodic reconciler: the lost purchase reaches the server only when an agent
# presses "Check Apple's notification history now" (form#reconcile on the owed page).
DEV_CONFIGURATION = {
    "deploymentEnvironment": "Sandbox",
    "allowedEnvironments": ["Sandbox", "Production", "Xcode"],
    "answerConsumptionRequests": True,
    "reconcilerIntervalSeconds": 0,
    "console": {"owedAfterSeconds": 0},
}


def totp_code(secret: str, at: float = None, step: int = 0) -> str:
    """RFC 6238 (SHA-1, 30-second steps, six digits) with the secret's UTF-8 bytes as the key,
    as StaffCredentials computes it; `step` moves that many periods away from now."""
    counter = int((time.time() if at is None else at) // 30) + step
    digest = hmac.new(secret.encode(), struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = (struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000
    return f"{value:06d}"


def wrong_totp_code(secret: str) -> str:
    """A six-digit code that is none of the codes the server accepts now (one step either way)."""
    accepted = {totp_code(secret, step=s) for s in (-2, -1, 0, 1, 2)}
    candidate = int(totp_code(secret))
    while f"{candidate:06d}" in accepted:
        candidate = (candidate + 314_159) % 1_000_000
    return f"{candidate:06d}"


@dataclass
class StaffMember:
    name: str
    role: str
    password: str
    totp_secret: str = None


@dataclass
class Purchase:
    """A purchase as the device and the server saw it."""
    player_id: str
    product_id: str
    transaction_id: str
    original_transaction_id: str
    apple_order_id: str
    order_id: str = None


@dataclass
class Stack:
    binary: str
    workdir: Path
    base: str = ""
    admin_password: str = ""
    child: Child = None
    database: str = ""
    staff: dict = field(default_factory=dict)

    # --- process -------------------------------------------------------------------------

    def start(self) -> None:
        port = free_port()
        self.database = f"sqlite:{self.workdir / 'ledger.sqlite'}"
        config = self.workdir / "config.json"
        config.write_text(json.dumps(DEV_CONFIGURATION, indent=2))
        self.child = Child("server", [
            self.binary, "serve", "--dev", "--port", str(port), "--database", self.database,
            "--dev-data-dir", str(self.workdir / "dev"), "--config", str(config)], self.workdir)
        wait_until_serving(f"http://127.0.0.1:{port}/healthz", self.child.process)
        deadline = time.monotonic() + 30
        while True:
            match = CONSOLE_LINE.search(self.child.log_path.read_text(errors="replace"))
            if match:
                break
            if time.monotonic() > deadline or self.child.process.poll() is not None:
                raise SystemExit("serve --dev printed no 'Support console: …' line:\n" + self.child.tail())
            time.sleep(0.1)
        url, self.admin_password = match.group(1), match.group(2)
        if not url.startswith(f"http://127.0.0.1:{port}/console"):
            raise SystemExit(f"serve --dev printed the console at {url}, not on port {port}")
        self.base = f"http://127.0.0.1:{port}"
        self.staff["dev-admin"] = StaffMember("dev-admin", "admin", self.admin_password)

    def stop(self) -> None:
        if self.child:
            self.child.stop()

    # --- staff CLI -----------------------------------------------------------------------

    def add_staff(self, name: str, role: str, totp: bool = False) -> StaffMember:
        password = f"{name}-correct-horse-battery"
        command = [self.binary, "staff", "add", name, "--role", role, "--password-stdin",
                   "--database", self.database] + (["--totp"] if totp else [])
        result = subprocess.run(command, input=password + "\n", capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            raise AssertionError(f"staff add {name} exited {result.returncode}: {result.stderr.strip()}")
        secret = None
        if totp:
            found = re.search(r"^totp secret: (\S+)", result.stdout, re.MULTILINE)
            if not found:
                raise AssertionError(f"staff add --totp printed no 'totp secret:' line: {result.stdout!r}")
            secret = found.group(1)
            if not re.search(r"^otpauth: otpauth://totp/", result.stdout, re.MULTILINE):
                raise AssertionError(f"staff add --totp printed no 'otpauth:' line: {result.stdout!r}")
        member = StaffMember(name, role, password, secret)
        self.staff[name] = member
        return member

    def disable_staff(self, name: str) -> None:
        subprocess.run([self.binary, "staff", "disable", name, "--database", self.database],
                       capture_output=True, text=True, timeout=60, check=True)

    def staff_list(self) -> str:
        return subprocess.run([self.binary, "staff", "list", "--database", self.database],
                              capture_output=True, text=True, timeout=60, check=True).stdout

    # --- HTTP ----------------------------------------------------------------------------

    def call(self, method: str, path: str, body=None, token: str = None, expect=(200,)):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, text = answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode(errors="replace")
        if status not in expect:
            raise AssertionError(f"{method} {path}: HTTP {status}: {text[:300]}")
        return json.loads(text) if text.strip().startswith(("{", "[")) else text

    def player_token(self, player_id: str) -> str:
        return subprocess.check_output([self.binary, "token", "--player", player_id], text=True).strip()

    def wallet(self, player_id: str) -> dict:
        return self.call("GET", "/v1/players/me/wallet", token=self.player_token(player_id)).get("balances", {})

    def set_notification_drops(self, drop: bool) -> None:
        self.call("PUT", "/emulator/v1/faults", {"notifications": {"dropRate": 1.0}} if drop else {})

    def buy(self, player_id: str, product_id: str, device: str) -> Purchase:
        """An ordinary purchase: order, payment on the device with the order's token, report."""
        token = self.player_token(player_id)
        order = self.call("POST", "/v1/orders", {"productId": product_id}, token=token, expect=(200, 201))
        paid = self.call("POST", f"/emulator/v1/devices/{device}/purchases",
                         {"productId": product_id, "appAccountToken": order["appAccountToken"]})
        report = {"orderId": order["orderId"], "signedTransaction": paid["signedTransaction"]}
        self.call("POST", "/v1/purchases", report, token=token, expect=(200, 201))
        # The SDK's purchase-flow log of this purchase, as the app sends it (the player page shows it).
        steps = [("order_created", None, {"productId": product_id}), ("store_sheet_shown", None, {}),
                 ("store_purchased", paid["transactionId"], {"storefront": "CHN"}),
                 ("report_delivered", paid["transactionId"], {"status": "delivered"})]
        now = int(time.time() * 1000)
        events = [{"name": name, "orderId": order["orderId"], "transactionId": transaction,
                   "occurredAt": now - (len(steps) - index) * 700, "attributes": attributes}
                  for index, (name, transaction, attributes) in enumerate(steps)]
        self.call("POST", "/v1/events", {"events": events}, token=token, expect=(200, 201, 202, 204))
        return Purchase(player_id, product_id, paid["transactionId"], self.original_transaction_id(paid),
                        paid["orderId"], order["orderId"])

    def client_event(self, player_id: str, name: str, count: int = 1) -> None:
        """Purchase-flow events from the player's app (POST /v1/events), `count` of them."""
        now = int(time.time() * 1000)
        events = [{"name": name, "occurredAt": now - (count - index) * 1000} for index in range(count)]
        self.call("POST", "/v1/events", {"events": events}, token=self.player_token(player_id),
                  expect=(200, 201, 202, 204))

    def refund(self, transaction_id: str, percentage: int = None) -> None:
        """Apple refunds the transaction (the emulator sends REFUND to the server): all that is
        left, or `percentage` milliunits of it (30000 is 30%)."""
        body = {"percentage": percentage} if percentage is not None else None
        self.call("POST", f"/emulator/v1/transactions/{transaction_id}/refund", body)

    def admin_grant(self, player_id: str, grants: dict, reason: str, actor: str) -> None:
        self.call("POST", "/v1/admin/grants", {"playerId": player_id, "grants": grants, "reason": reason,
                                                "actor": actor}, token="dev-admin-key", expect=(200, 201))

    def spend(self, player_id: str, items: dict, reason: str, key: str) -> dict:
        """The game server spends from the wallet (POST /v1/admin/players/{id}/spends)."""
        return self.call("POST", f"/v1/admin/players/{quote(player_id, safe='')}/spends",
                         {"idempotencyKey": key, "items": items, "reason": reason, "actor": "game-server"},
                         token="dev-admin-key", expect=(200, 201))

    def list_price_cents(self, product_id: str) -> int:
        """The catalog's list price of `product_id` (GET /v1/products, in milliunits) in
        hundredths, for a currency with two decimals."""
        products = self.call("GET", "/v1/products")["products"]
        return next(product["price"] for product in products if product["productId"] == product_id) // 10

    def wait_for_wallet(self, player_id: str, item: str, value: int, seconds: float = 15) -> None:
        deadline = time.monotonic() + seconds
        while self.wallet(player_id).get(item, 0) != value:
            if time.monotonic() > deadline:
                raise AssertionError(f"{player_id}'s {item} stayed {self.wallet(player_id).get(item, 0)}, not {value}")
            time.sleep(0.2)

    def buy_lost(self, product_id: str, device: str) -> Purchase:
        """A charge the server never hears of: no appAccountToken, every notification dropped,
        never reported by the app. Only Apple's notification history (the reconciler) and
        Look Up Order ID know it."""
        self.set_notification_drops(True)
        try:
            paid = self.call("POST", f"/emulator/v1/devices/{device}/purchases", {"productId": product_id})
        finally:
            self.set_notification_drops(False)
        return Purchase(None, product_id, paid["transactionId"], self.original_transaction_id(paid), paid["orderId"])

    def server_knows_transaction(self, transaction_id: str) -> bool:
        answer = self.call("GET", f"/v1/admin/transactions/{transaction_id}", token="dev-admin-key", expect=(200, 404))
        return isinstance(answer, dict) and "error" not in answer

    @staticmethod
    def original_transaction_id(paid: dict) -> str:
        payload = paid["signedTransaction"].split(".")[1]
        payload += "=" * (-len(payload) % 4)
        return json.loads(base64.urlsafe_b64decode(payload))["originalTransactionId"]

#!/usr/bin/env python3
"""Google's own API client for Python (from PyPI) against the Play side of `storekeeper emulator`.

Installs google-api-python-client and google-auth, pinned, into a virtual environment of
its own (once), then runs this file again inside it. There it starts `storekeeper emulator`
on a free port, downloads the service-account key the emulator issues, buys a one-time
product on an emulated Play device, and drives Google's libraries unchanged:
`service_account.Credentials.from_service_account_info` signs the OAuth 2.0 JWT assertion
and exchanges it at the key's `token_uri` (the emulator's `/token`); the discovery client
for `androidpublisher` v3 (its bundled document, `api_endpoint` = the emulator) calls
`purchases.products.get`, `acknowledge` and `consume`, `purchases.subscriptionsv2` get,
cancel and revoke, `purchases.subscriptions` acknowledge and cancel. Real-time developer notifications
are pushed to a receiver of this script's own, and google-auth's JWT verification checks
their OIDC token against the emulator's `/emulator/v1/play/certs`. Exits 1 when a check fails.

  Scripts/conformance/play.py --binary .build/debug/storekeeper [-v]
"""

import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# Google's libraries, pinned: a new release is adopted by changing this line and running the test.
REQUIREMENTS = ["google-api-python-client==2.202.0", "google-auth==2.63.0"]
SCOPE = "https://www.googleapis.com/auth/androidpublisher"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "storekeeper"))
    parser.add_argument("--venv", default=str(ROOT / ".build" / "play-conformance-venv"))
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.inside:
        return run_checks(arguments.binary, arguments.verbose)
    venv = Path(arguments.venv)
    subprocess.check_call([sys.executable, str(HERE.parent / "install_venv.py"), str(venv), *REQUIREMENTS])
    command = [str(venv / "bin" / "python"), str(Path(__file__).resolve()), "--inside", "--binary",
               str(Path(arguments.binary).resolve())]
    command += ["-v"] if arguments.verbose else []
    return subprocess.call(command, env={**os.environ, "PYTHONUNBUFFERED": "1"})


class World:
    emulator = None
    base = ""
    publisher = None
    package_name = "com.example.game"


WORLD = World()


def run_checks(binary: str, verbose: bool) -> int:
    sys.path[:0] = [str(HERE.parent)]
    from storekeeper_processes import Child, free_port, http_json, wait_until_serving
    from google.oauth2 import service_account
    from googleapiclient import discovery

    scratch = Path(tempfile.mkdtemp(prefix="storekeeper-play-conformance-"))
    port = free_port()
    WORLD.emulator = Child(
        "emulator", [binary, "emulator", "--port", str(port), "--data-dir", str(scratch / "emulator-data")], scratch)
    WORLD.base = f"http://127.0.0.1:{port}"
    WORLD.http_json = http_json
    try:
        wait_until_serving(WORLD.base + "/emulator/v1/products", WORLD.emulator.process)
        info = http_json("GET", WORLD.base + "/emulator/v1/play/service-account")
        assert info["type"] == "service_account", info
        assert info["token_uri"] == WORLD.base + "/token", info["token_uri"]
        credentials = service_account.Credentials.from_service_account_info(info, scopes=[SCOPE])
        WORLD.credentials = credentials
        WORLD.publisher = discovery.build(
            "androidpublisher", "v3", credentials=credentials,
            client_options={"api_endpoint": WORLD.base + "/"}, static_discovery=True, cache_discovery=False)
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(PlayConformance)
        result = unittest.TextTestRunner(verbosity=2 if verbose else 1).run(suite)
        report = WORLD.emulator.crash_report()
        if report:
            print(report)
            print(WORLD.emulator.tail())
            return 1
        return 0 if result.wasSuccessful() else 1
    finally:
        WORLD.emulator.stop()


def device_purchase(product_id: str, account_id: str, device: str, **extra) -> dict:
    body = {"productId": product_id, "obfuscatedAccountId": account_id, **extra}
    return WORLD.http_json("POST", f"{WORLD.base}/emulator/v1/play/devices/{device}/purchases", body)


class PushReceiver:
    """A Pub/Sub push endpoint on a free loopback port: keeps every push (its Authorization
    header and JSON body) and answers 204."""

    def __init__(self):
        import http.server
        import threading
        pushes, lock = [], threading.Lock()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with lock:
                    pushes.append((self.headers.get("Authorization"), json.loads(body)))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/rtdn"
        self.pushes, self.lock = pushes, lock
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, matches, seconds: float = 30):
        """The first push whose decoded DeveloperNotification `matches`: (authorization,
        envelope, notification)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self.lock:
                for authorization, envelope in self.pushes:
                    notification = json.loads(base64.b64decode(envelope["message"]["data"]))
                    if matches(notification):
                        return authorization, envelope, notification
            time.sleep(0.05)
        raise AssertionError("no matching push arrived")

    def close(self):
        self.server.shutdown()


def push_certs() -> dict:
    """The emulator's push-signing JWKS as google-auth's `certs`: key id → PEM public key."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    def number(text: str) -> int:
        return int.from_bytes(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)), "big")

    certs = {}
    for key in WORLD.http_json("GET", WORLD.base + "/emulator/v1/play/certs")["keys"]:
        public = rsa.RSAPublicNumbers(number(key["e"]), number(key["n"])).public_key()
        certs[key["kid"]] = public.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return certs


class PlayConformance(unittest.TestCase):
    def products(self):
        return WORLD.publisher.purchases().products()

    def get(self, product_id: str, token: str) -> dict:
        return self.products().get(packageName=WORLD.package_name, productId=product_id, token=token).execute()

    def test_purchase_get_acknowledge_consume(self):
        bought = device_purchase("coins100", "order-0001", "play-conformance-1")
        token, order_id = bought["purchaseToken"], bought["orderId"]
        self.assertRegex(order_id, r"^GPA\.\d{4}-\d{4}-\d{4}-\d{5}$")

        purchase = self.get("coins100", token)
        self.assertEqual(purchase["kind"], "androidpublisher#productPurchase")
        self.assertEqual(purchase["orderId"], order_id)
        self.assertEqual(purchase["purchaseToken"], token)
        self.assertEqual(purchase["productId"], "coins100")
        self.assertEqual(purchase["obfuscatedExternalAccountId"], "order-0001")
        self.assertEqual(purchase["purchaseState"], 0)
        self.assertEqual(purchase["acknowledgementState"], 0)
        self.assertEqual(purchase["consumptionState"], 0)
        self.assertIsInstance(purchase["purchaseTimeMillis"], str)
        self.assertTrue(purchase["purchaseTimeMillis"].isdigit())
        # The library signed an assertion and exchanged it for an access token at token_uri.
        self.assertTrue(WORLD.credentials.valid)
        self.assertTrue(WORLD.credentials.token.startswith("ya29."))

        self.products().acknowledge(
            packageName=WORLD.package_name, productId="coins100", token=token,
            body={"developerPayload": "delivered order-0001"}).execute()
        acknowledged = self.get("coins100", token)
        self.assertEqual(acknowledged["acknowledgementState"], 1)
        self.assertEqual(acknowledged["developerPayload"], "delivered order-0001")
        self.assertEqual(acknowledged["consumptionState"], 0)

        self.products().consume(packageName=WORLD.package_name, productId="coins100", token=token).execute()
        consumed = self.get("coins100", token)
        self.assertEqual(consumed["consumptionState"], 1)
        self.assertEqual(consumed["acknowledgementState"], 1)

    def refund(self, order_id: str, **revoke) -> None:
        WORLD.publisher.orders().refund(packageName=WORLD.package_name, orderId=order_id, **revoke).execute()

    def voided(self, **query) -> list:
        """Every page of purchases.voidedpurchases.list, following tokenPagination.nextPageToken."""
        voided, pages = [], 0
        while True:
            page = WORLD.publisher.purchases().voidedpurchases().list(
                packageName=WORLD.package_name, **query).execute()
            pages += 1
            self.assertLessEqual(len(page.get("voidedPurchases", [])), query.get("maxResults", 1000))
            voided += page.get("voidedPurchases", [])
            token = page.get("tokenPagination", {}).get("nextPageToken")
            if not token:
                return voided
            self.assertLess(pages, 50)
            query = {**query, "token": token}

    def test_orders_refund_and_voided_purchases_paged(self):
        start = str(int(time.time() * 1000) - 1)
        bought = [device_purchase("coins100", f"order-01{index}", f"play-conformance-refund-{index}")
                  for index in range(3)]
        for purchase in bought:
            self.refund(purchase["orderId"], revoke=True)
            refunded = self.get("coins100", purchase["purchaseToken"])
            self.assertEqual(refunded["purchaseState"], 1)
            self.assertEqual(refunded["refundableQuantity"], 0)
        voided = self.voided(startTime=start, maxResults=2, type=0)
        ours = [entry for entry in voided if entry["orderId"] in {purchase["orderId"] for purchase in bought}]
        self.assertEqual([entry["orderId"] for entry in ours], [purchase["orderId"] for purchase in bought])
        for entry, purchase in zip(ours, bought):
            self.assertEqual(entry["kind"], "androidpublisher#voidedPurchase")
            self.assertEqual(entry["purchaseToken"], purchase["purchaseToken"])
            self.assertEqual(entry["voidedSource"], 1)
            self.assertEqual(entry["voidedReason"], 0)
            self.assertNotIn("voidedQuantity", entry)
            self.assertIsInstance(entry["purchaseTimeMillis"], str)
            self.assertIsInstance(entry["voidedTimeMillis"], str)
            self.assertGreaterEqual(int(entry["voidedTimeMillis"]), int(entry["purchaseTimeMillis"]))
            self.assertEqual(entry["purchaseTimeMillis"], self.get("coins100", purchase["purchaseToken"])["purchaseTimeMillis"])

    def test_refund_without_revoke_and_partial_refunds(self):
        from googleapiclient.errors import HttpError
        start = str(int(time.time() * 1000) - 1)
        kept = device_purchase("levelpack1", "order-0201", "play-conformance-keep")
        self.refund(kept["orderId"], revoke=False)
        self.assertEqual(self.get("levelpack1", kept["purchaseToken"])["purchaseState"], 0)
        with self.assertRaises(HttpError) as raised:
            self.refund(kept["orderId"])
        self.assertEqual(raised.exception.status_code, 400)
        with self.assertRaises(HttpError) as raised:
            self.refund("GPA.0000-0000-0000-00000")
        self.assertEqual(raised.exception.status_code, 404)

        several = device_purchase("coins100", "order-0202", "play-conformance-partial", quantity=3)
        device = f"{WORLD.base}/emulator/v1/play/devices/play-conformance-partial/purchases"
        WORLD.http_json("POST", f"{device}/{several['purchaseToken']}:refund", {"quantity": 1, "reason": "chargeback"})
        self.assertEqual(self.get("coins100", several["purchaseToken"])["refundableQuantity"], 2)
        plain = self.voided(startTime=start)
        self.assertNotIn(several["orderId"], [entry["orderId"] for entry in plain])
        self.assertIn(kept["orderId"], [entry["orderId"] for entry in plain])
        partial = [entry for entry in self.voided(startTime=start, includeQuantityBasedPartialRefund=True, type=1)
                   if entry["orderId"] == several["orderId"]]
        self.assertEqual(len(partial), 1)
        self.assertEqual(partial[0]["voidedQuantity"], 1)
        self.assertEqual(partial[0]["voidedReason"], 7)
        self.assertEqual(partial[0]["voidedSource"], 0)

    def test_real_time_developer_notifications(self):
        from google.auth import jwt
        receiver = PushReceiver()
        push = WORLD.base + "/emulator/v1/play/push"
        try:
            WORLD.http_json("PUT", push, {"url": receiver.url})
            bought = device_purchase("coins500", "order-0301", "play-conformance-rtdn")
            token = bought["purchaseToken"]
            authorization, envelope, notification = receiver.wait_for(
                lambda n: n.get("oneTimeProductNotification", {}).get("purchaseToken") == token)
            self.assertEqual(envelope["subscription"], "projects/storekeeper-emulator/subscriptions/play-rtdn")
            self.assertRegex(envelope["message"]["messageId"], r"^\d+$")
            self.assertRegex(envelope["message"]["publishTime"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
            self.assertEqual(notification["packageName"], WORLD.package_name)
            self.assertTrue(notification["eventTimeMillis"].isdigit())
            self.assertEqual(notification["oneTimeProductNotification"],
                             {"version": "1.0", "notificationType": 1, "purchaseToken": token, "sku": "coins500"})
            # Google's own JWT verification: signature with the served key, iat/exp, audience.
            self.assertTrue(authorization.startswith("Bearer "))
            claims = jwt.decode(authorization[len("Bearer "):], certs=push_certs(), audience=receiver.url)
            self.assertEqual(claims["iss"], "https://accounts.google.com")
            self.assertEqual(claims["email"], "storekeeper-push@storekeeper-emulator.iam.gserviceaccount.com")
            self.assertIs(claims["email_verified"], True)
            self.assertEqual(claims["exp"] - claims["iat"], 3600)

            self.refund(bought["orderId"], revoke=True)
            _, _, voided = receiver.wait_for(lambda n: "voidedPurchaseNotification" in n)
            self.assertEqual(voided["voidedPurchaseNotification"],
                             {"purchaseToken": token, "orderId": bought["orderId"], "productType": 2, "refundType": 1})

            WORLD.http_json("POST", WORLD.base + "/emulator/v1/play/notifications/test")
            _, _, test = receiver.wait_for(lambda n: "testNotification" in n)
            self.assertEqual(test["testNotification"], {"version": "1.0"})
        finally:
            WORLD.http_json("PUT", push, {})
            receiver.close()

    def test_subscriptions(self):
        from googleapiclient.errors import HttpError
        start = str(int(time.time() * 1000) - 1)
        purchases = WORLD.publisher.purchases()
        bought = device_purchase("vip.monthly", "order-0401", "play-conformance-sub-1")
        token = bought["purchaseToken"]
        subscription = purchases.subscriptionsv2().get(packageName=WORLD.package_name, token=token).execute()
        self.assertEqual(subscription["kind"], "androidpublisher#subscriptionPurchaseV2")
        self.assertEqual(subscription["subscriptionState"], "SUBSCRIPTION_STATE_ACTIVE")
        self.assertEqual(subscription["acknowledgementState"], "ACKNOWLEDGEMENT_STATE_PENDING")
        self.assertEqual(subscription["latestOrderId"], bought["orderId"])
        self.assertEqual(subscription["externalAccountIdentifiers"]["obfuscatedExternalAccountId"], "order-0401")
        item = subscription["lineItems"][0]
        self.assertEqual(item["productId"], "vip.monthly")
        self.assertTrue(item["autoRenewingPlan"]["autoRenewEnabled"])
        self.assertRegex(item["expiryTime"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")

        purchases.subscriptions().acknowledge(
            packageName=WORLD.package_name, subscriptionId="vip.monthly", token=token,
            body={"developerPayload": "delivered"}).execute()
        purchases.subscriptions().cancel(
            packageName=WORLD.package_name, subscriptionId="vip.monthly", token=token).execute()
        canceled = purchases.subscriptionsv2().get(packageName=WORLD.package_name, token=token).execute()
        self.assertEqual(canceled["acknowledgementState"], "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED")
        self.assertEqual(canceled["subscriptionState"], "SUBSCRIPTION_STATE_CANCELED")
        self.assertFalse(canceled["lineItems"][0]["autoRenewingPlan"]["autoRenewEnabled"])
        with self.assertRaises(HttpError) as raised:
            purchases.subscriptions().acknowledge(
                packageName=WORLD.package_name, subscriptionId="vip.premium", token=token, body={}).execute()
        self.assertEqual(raised.exception.error_details[0]["reason"], "purchaseTokenDoesNotMatchProductId")

        other = device_purchase("vip.premium", "order-0402", "play-conformance-sub-2")
        purchases.subscriptionsv2().cancel(
            packageName=WORLD.package_name, token=other["purchaseToken"],
            body={"cancellationContext": {"cancellationType": "DEVELOPER_REQUESTED_STOP_PAYMENTS"}}).execute()
        purchases.subscriptionsv2().revoke(
            packageName=WORLD.package_name, token=other["purchaseToken"],
            body={"revocationContext": {"fullRefund": {}}}).execute()
        revoked = purchases.subscriptionsv2().get(packageName=WORLD.package_name, token=other["purchaseToken"]).execute()
        self.assertEqual(revoked["subscriptionState"], "SUBSCRIPTION_STATE_EXPIRED")
        with_subscriptions = [entry["orderId"] for entry in self.voided(startTime=start, type=1)]
        self.assertIn(other["orderId"], with_subscriptions)
        self.assertNotIn(other["orderId"], [entry["orderId"] for entry in self.voided(startTime=start, type=0)])

    def test_unknown_token_is_googles_404(self):
        from googleapiclient.errors import HttpError
        with self.assertRaises(HttpError) as raised:
            self.get("coins100", "no-such-token")
        self.assertEqual(raised.exception.status_code, 404)
        self.assertEqual(raised.exception.error_details[0]["reason"], "notFound")

    def test_pending_purchase_cannot_be_acknowledged(self):
        from googleapiclient.errors import HttpError
        bought = device_purchase("levelpack1", "order-0002", "play-conformance-2", pending=True)
        self.assertEqual(self.get("levelpack1", bought["purchaseToken"])["purchaseState"], 2)
        with self.assertRaises(HttpError) as raised:
            self.products().acknowledge(
                packageName=WORLD.package_name, productId="levelpack1", token=bought["purchaseToken"],
                body={}).execute()
        self.assertEqual(raised.exception.status_code, 400)
        self.assertEqual(raised.exception.error_details[0]["reason"], "invalidPurchaseState")

    def test_without_credentials_is_401(self):
        from googleapiclient import discovery
        from googleapiclient.errors import HttpError
        anonymous = discovery.build(
            "androidpublisher", "v3", developerKey="not-a-token",
            client_options={"api_endpoint": WORLD.base + "/"}, static_discovery=True, cache_discovery=False)
        with self.assertRaises(HttpError) as raised:
            anonymous.purchases().products().get(
                packageName=WORLD.package_name, productId="coins100", token="x").execute()
        self.assertEqual(raised.exception.status_code, 401)


if __name__ == "__main__":
    sys.exit(main())

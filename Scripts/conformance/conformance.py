"""Apple's App Store Server Library for Python, unchanged, against `storekeeper emulator`.

Run by run.py inside the virtual environment that holds the library; it starts everything
itself: `storekeeper emulator` as a separate process, a receiver for the notifications the
emulator POSTs, and the stand-in network of apple_hosts.py that answers Apple's hosts with
the emulator. Nothing here touches the library's code or its objects' private state: its
`AppStoreServerAPIClient` is built with `Environment.SANDBOX` and talks to
https://api.storekit-sandbox.apple.com as it would in production; its `SignedDataVerifier`
trusts the emulator's root with online checks off; its `ReceiptUtility` reads app receipts.

  python conformance.py --binary .build/debug/storekeeper [-v]
"""

import argparse
import base64
import json
import os
import sys
import tempfile
import threading
import time
import unittest
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from apple_hosts import AppleHostsProxy  # noqa: E402
from storekeeper_processes import Child, free_port, wait_until_serving  # noqa: E402

from appstoreserverlibrary.api_client import (  # noqa: E402
    APIError,
    APIException,
    AppStoreServerAPIClient,
    GetTransactionHistoryVersion,
)
from appstoreserverlibrary.models.AutoRenewStatus import AutoRenewStatus  # noqa: E402
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest  # noqa: E402
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1  # noqa: E402
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus  # noqa: E402
from appstoreserverlibrary.models.Environment import Environment  # noqa: E402
from appstoreserverlibrary.models.ExpirationIntent import ExpirationIntent  # noqa: E402
from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType  # noqa: E402
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest  # noqa: E402
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2  # noqa: E402
from appstoreserverlibrary.models.OrderLookupStatus import OrderLookupStatus  # noqa: E402
from appstoreserverlibrary.models.RefundPreference import RefundPreference  # noqa: E402
from appstoreserverlibrary.models.RevocationType import RevocationType  # noqa: E402
from appstoreserverlibrary.models.Status import Status  # noqa: E402
from appstoreserverlibrary.models.Subtype import Subtype  # noqa: E402
from appstoreserverlibrary.models.TransactionHistoryRequest import (  # noqa: E402
    Order,
    ProductType,
    TransactionHistoryRequest,
)
from appstoreserverlibrary.models.TransactionReason import TransactionReason  # noqa: E402
from appstoreserverlibrary.models.Type import Type  # noqa: E402
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest  # noqa: E402
from appstoreserverlibrary.receipt_utility import ReceiptUtility  # noqa: E402
from appstoreserverlibrary.signed_data_verifier import (  # noqa: E402
    SignedDataVerifier,
    VerificationException,
)


class NotificationReceiver(ThreadingHTTPServer):
    """Where the emulator POSTs App Store Server Notifications V2; keeps every body."""

    daemon_threads = True

    def __init__(self):
        self.payloads: list = []
        self.arrived = threading.Condition()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(handler):  # noqa: N805 - the handler's own self
                length = int(handler.headers.get("Content-Length", "0"))
                body = json.loads(handler.rfile.read(length))
                with self.arrived:
                    self.payloads.append(body["signedPayload"])
                    self.arrived.notify_all()
                handler.send_response(200)
                handler.send_header("Content-Length", "0")
                handler.end_headers()

            def log_message(handler, *arguments):  # noqa: N805
                return

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/notifications"


class World:
    """The processes and clients the tests share, started once."""

    emulator: Child
    base: str
    receiver: NotificationReceiver
    proxy: AppleHostsProxy
    client: AppStoreServerAPIClient
    verifier: SignedDataVerifier
    bundle_id: str
    root: bytes


WORLD = World()


def control(method: str, path: str, body=None) -> dict:
    """A call to the emulator's own control and device API (not Apple's)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        WORLD.base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read()
        return json.loads(text) if text else {}


def buy(device: str, product: str, token=None, quantity=None) -> dict:
    body = {"productId": product}
    if token:
        body["appAccountToken"] = token
    if quantity:
        body["quantity"] = quantity
    result = control("POST", f"/emulator/v1/devices/{device}/purchases", body)
    assert result["outcome"] == "purchased", result
    return result


def new_device() -> str:
    return "conformance-" + uuid.uuid4().hex[:12]


def setUpModule():  # noqa: N802 - unittest's name
    binary = os.environ["STOREKEEPER_BINARY"]
    scratch = Path(tempfile.mkdtemp(prefix="storekeeper-conformance-"))
    WORLD.receiver = NotificationReceiver()
    port = free_port()
    WORLD.emulator = Child(
        "emulator",
        [binary, "emulator", "--port", str(port), "--data-dir", str(scratch / "emulator-data"),
         "--notification-url", WORLD.receiver.url],
        scratch)
    WORLD.base = f"http://127.0.0.1:{port}"
    wait_until_serving(WORLD.base + "/emulator/v1/products", WORLD.emulator.process)
    WORLD.proxy = AppleHostsProxy(port, scratch)
    os.environ.update(WORLD.proxy.environment())
    key = control("GET", "/emulator/v1/server-api-key")
    WORLD.bundle_id = key["bundleId"]
    WORLD.root = base64.b64decode(control("GET", "/emulator/v1/roots")["jws"])
    WORLD.client = AppStoreServerAPIClient(
        key["privateKey"].encode(), key["keyId"], key["issuerId"], key["bundleId"], Environment.SANDBOX)
    WORLD.verifier = SignedDataVerifier([WORLD.root], False, Environment.SANDBOX, WORLD.bundle_id)


def tearDownModule():  # noqa: N802
    WORLD.proxy.shutdown()
    WORLD.receiver.shutdown()
    report = WORLD.emulator.crash_report()
    WORLD.emulator.stop()
    if report:
        raise AssertionError(report)


class ConformanceCase(unittest.TestCase):
    """Helpers every case uses."""

    def assertAPIError(self, call, status: int, code: APIError):  # noqa: N802
        with self.assertRaises(APIException) as raised:
            call()
        self.assertEqual((raised.exception.http_status_code, raised.exception.api_error), (status, code),
                         raised.exception.error_message)

    def transaction(self, signed: str):
        return WORLD.verifier.verify_and_decode_signed_transaction(signed)

    def notifications_about(self, transaction_id: str, kind: NotificationTypeV2, seconds: float = 30,
                            count: int = 1) -> list:
        """The notifications of `kind` the receiver got about a transaction, waiting for `count`."""
        deadline = time.monotonic() + seconds
        with WORLD.receiver.arrived:
            while True:
                found = []
                for payload in WORLD.receiver.payloads:
                    decoded = WORLD.verifier.verify_and_decode_notification(payload)
                    if decoded.notificationType != kind or decoded.data is None:
                        continue
                    signed = decoded.data.signedTransactionInfo
                    if signed and self.transaction(signed).transactionId == transaction_id:
                        found.append(decoded)
                if len(found) >= count or time.monotonic() > deadline:
                    return found
                WORLD.receiver.arrived.wait(timeout=1)


class DeviceAndReceiptTests(ConformanceCase):
    def test_device_transaction_verifies_and_carries_apple_fields(self):
        token = str(uuid.uuid4())
        bought = buy(new_device(), "coins100", token=token)
        payload = self.transaction(bought["signedTransaction"])
        self.assertEqual(payload.transactionId, bought["transactionId"])
        self.assertEqual(payload.bundleId, WORLD.bundle_id)
        self.assertEqual(payload.productId, "coins100")
        self.assertEqual(payload.type, Type.CONSUMABLE)
        self.assertEqual(payload.appAccountToken, token)
        self.assertEqual(payload.environment, Environment.SANDBOX)
        self.assertEqual(payload.inAppOwnershipType, InAppOwnershipType.PURCHASED)
        self.assertIsNotNone(payload.appTransactionId)
        self.assertEqual(bought["appTransactionId"], payload.appTransactionId)

    def test_receipt_utility_reads_the_app_receipt(self):
        bought = buy(new_device(), "potion")
        self.assertEqual(ReceiptUtility().extract_transaction_id_from_app_receipt(bought["appReceipt"]),
                         bought["transactionId"])

    def test_a_chain_under_another_root_does_not_verify(self):
        bought = buy(new_device(), "coins100")
        stranger = SignedDataVerifier([b"not a certificate"], False, Environment.SANDBOX, WORLD.bundle_id)
        with self.assertRaises(VerificationException):
            stranger.verify_and_decode_signed_transaction(bought["signedTransaction"])


class TransactionInfoTests(ConformanceCase):
    def test_get_transaction_info(self):
        bought = buy(new_device(), "levelpack1")
        answer = WORLD.client.get_transaction_info(bought["transactionId"])
        self.assertEqual(self.transaction(answer.signedTransactionInfo).transactionId, bought["transactionId"])

    def test_unknown_and_malformed_ids(self):
        self.assertAPIError(lambda: WORLD.client.get_transaction_info("2999999999999999"), 404,
                            APIError.TRANSACTION_ID_NOT_FOUND)
        self.assertAPIError(lambda: WORLD.client.get_transaction_info("abc"), 400, APIError.INVALID_TRANSACTION_ID)

    def test_a_token_signed_by_another_key_is_refused(self):
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        other = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        key = control("GET", "/emulator/v1/server-api-key")
        stranger = AppStoreServerAPIClient(other, key["keyId"], key["issuerId"], key["bundleId"],
                                           Environment.SANDBOX)
        with self.assertRaises(APIException) as raised:
            stranger.get_transaction_info("2000000000000001")
        self.assertEqual(raised.exception.http_status_code, 401)


class TransactionHistoryTests(ConformanceCase):
    @classmethod
    def setUpClass(cls):
        cls.device = new_device()
        cls.bought = [buy(cls.device, "coins100") for _ in range(12)]
        cls.bought += [buy(cls.device, "potion") for _ in range(10)]
        cls.bought.append(buy(cls.device, "levelpack1"))
        cls.bought.append(buy(cls.device, "vip.monthly"))
        cls.anchor = cls.bought[0]["transactionId"]
        cls.refunded = cls.bought[1]["transactionId"]
        time.sleep(0.002)  # the refund is dated after every purchase (the emulator dates in ms)
        control("POST", f"/emulator/v1/transactions/{cls.refunded}/refund")

    def history(self, request: TransactionHistoryRequest, version=GetTransactionHistoryVersion.V2) -> list:
        """Every page, following revisions; the decoded transactions."""
        found, revision = [], None
        while True:
            page = WORLD.client.get_transaction_history(self.anchor, revision, request, version)
            self.assertEqual(page.bundleId, WORLD.bundle_id)
            self.assertEqual(page.environment, Environment.SANDBOX)
            self.assertLessEqual(len(page.signedTransactions or []), 20)
            found += [self.transaction(s) for s in page.signedTransactions or []]
            self.assertIsNotNone(page.revision)
            if not page.hasMore:
                return found
            revision = page.revision

    def modified_order(self) -> list:
        """The purchases oldest first by Apple's "recently modified date": the refunded one last."""
        ids = [b["transactionId"] for b in self.bought]
        return [i for i in ids if i != self.refunded] + [self.refunded]

    def test_every_transaction_in_pages_in_modified_order(self):
        found = self.history(TransactionHistoryRequest())
        self.assertEqual([t.transactionId for t in found], self.modified_order())

    def test_descending_sort(self):
        found = self.history(TransactionHistoryRequest(sort=Order.DESCENDING))
        self.assertEqual([t.transactionId for t in found], list(reversed(self.modified_order())))

    def test_filters_by_product_and_type(self):
        potions = self.history(TransactionHistoryRequest(productIds=["potion"]))
        self.assertEqual(len(potions), 10)
        lasting = self.history(TransactionHistoryRequest(
            productTypes=[ProductType.NON_CONSUMABLE, ProductType.AUTO_RENEWABLE]))
        self.assertEqual(sorted(t.productId for t in lasting), ["levelpack1", "vip.monthly"])

    def test_filters_by_group_ownership_and_dates(self):
        subscription = self.transaction(self.bought[-1]["signedTransaction"])
        grouped = self.history(TransactionHistoryRequest(
            subscriptionGroupIdentifiers=[subscription.subscriptionGroupIdentifier]))
        self.assertEqual([t.transactionId for t in grouped], [subscription.transactionId])
        owned = self.history(TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.PURCHASED))
        self.assertEqual(len(owned), len(self.bought))
        shared = self.history(TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.FAMILY_SHARED))
        self.assertEqual(shared, [])
        after = self.history(TransactionHistoryRequest(startDate=subscription.purchaseDate))
        self.assertIn(subscription.transactionId, [t.transactionId for t in after])
        before = self.history(TransactionHistoryRequest(endDate=self.transaction(
            self.bought[0]["signedTransaction"]).purchaseDate))
        self.assertNotIn(subscription.transactionId, [t.transactionId for t in before])

    def test_revoked_filter_and_v1(self):
        refunded = self.refunded
        revoked = self.history(TransactionHistoryRequest(revoked=True))
        self.assertEqual([t.transactionId for t in revoked], [refunded])
        kept = self.history(TransactionHistoryRequest(revoked=False))
        self.assertNotIn(refunded, [t.transactionId for t in kept])
        v1 = self.history(TransactionHistoryRequest(), GetTransactionHistoryVersion.V1)
        self.assertTrue(v1)

    def test_invalid_revision(self):
        self.assertAPIError(
            lambda: WORLD.client.get_transaction_history(self.anchor, "not-a-revision", TransactionHistoryRequest(),
                                                         GetTransactionHistoryVersion.V2),
            400, APIError.INVALID_REQUEST_REVISION)


class RefundTests(ConformanceCase):
    def test_partial_then_refund_history(self):
        device = new_device()
        bought = buy(device, "coins500")
        tid = bought["transactionId"]
        control("POST", f"/emulator/v1/transactions/{tid}/refund", {"percentage": 30000})
        history = WORLD.client.get_refund_history(tid, None)
        refunded = [self.transaction(s) for s in history.signedTransactions]
        self.assertEqual([t.transactionId for t in refunded], [tid])
        self.assertEqual(refunded[0].revocationType, RevocationType.REFUND_PRORATED)
        self.assertEqual(refunded[0].revocationPercentage, 30000)
        self.assertIsNotNone(refunded[0].revocationDate)
        notices = self.notifications_about(tid, NotificationTypeV2.REFUND)
        self.assertTrue(notices)
        self.assertEqual(self.transaction(notices[-1].data.signedTransactionInfo).revocationType,
                         RevocationType.REFUND_PRORATED)

    def test_full_refund_type(self):
        bought = buy(new_device(), "coins100")
        control("POST", f"/emulator/v1/transactions/{bought['transactionId']}/refund")
        info = self.transaction(WORLD.client.get_transaction_info(bought["transactionId"]).signedTransactionInfo)
        self.assertEqual(info.revocationType, RevocationType.REFUND_FULL)


class OrderLookupTests(ConformanceCase):
    def test_customer_order_id(self):
        bought = buy(new_device(), "coins100")
        order_id = bought["orderId"]
        self.assertRegex(order_id, r"^[A-Z0-9]{10}$")
        answer = WORLD.client.look_up_order_id(order_id)
        self.assertEqual(answer.status, OrderLookupStatus.VALID)
        self.assertEqual([self.transaction(s).transactionId for s in answer.signedTransactions],
                         [bought["transactionId"]])
        self.assertEqual(WORLD.client.look_up_order_id("MZZZZZZZZZ").status, OrderLookupStatus.INVALID)


class AppTransactionTests(ConformanceCase):
    def test_app_transaction_info(self):
        bought = buy(new_device(), "coins100")
        answer = WORLD.client.get_app_transaction_info(bought["transactionId"])
        app = WORLD.verifier.verify_and_decode_app_transaction(answer.signedAppTransactionInfo)
        self.assertEqual(app.bundleId, WORLD.bundle_id)
        self.assertEqual(app.appTransactionId, bought["appTransactionId"])
        self.assertEqual(app.receiptType, Environment.SANDBOX)
        again = WORLD.client.get_app_transaction_info(bought["appTransactionId"])
        self.assertEqual(WORLD.verifier.verify_and_decode_app_transaction(
            again.signedAppTransactionInfo).appTransactionId, bought["appTransactionId"])


class ConsumptionTests(ConformanceCase):
    def test_v2_is_recorded_and_v1_refused(self):
        bought = buy(new_device(), "coins100")
        tid = bought["transactionId"]
        control("POST", f"/emulator/v1/transactions/{tid}/consumption-request")
        WORLD.client.send_consumption_information(tid, ConsumptionRequest(
            customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED,
            consumptionPercentage=25000, refundPreference=RefundPreference.GRANT_PRORATED))
        recorded = control("GET", f"/emulator/v1/transactions/{tid}/consumption")
        self.assertEqual(recorded["deliveryStatus"], "DELIVERED")
        self.assertEqual(recorded["consumptionPercentage"], 25000)
        self.assertEqual(recorded["refundPreference"], "GRANT_PRORATED")
        with self.assertRaises(APIException) as raised:
            WORLD.client.send_consumption_data(tid, ConsumptionRequestV1(customerConsented=True))
        self.assertEqual(raised.exception.http_status_code // 100, 4)

    def test_without_consent_is_refused(self):
        bought = buy(new_device(), "coins100")
        tid = bought["transactionId"]
        control("POST", f"/emulator/v1/transactions/{tid}/consumption-request")
        self.assertAPIError(lambda: WORLD.client.send_consumption_information(tid, ConsumptionRequest(
            customerConsented=False, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED)),
            400, APIError.INVALID_CUSTOMER_CONSENTED)


class AppAccountTokenAndFinishTests(ConformanceCase):
    def test_set_app_account_token(self):
        bought = buy(new_device(), "levelpack1")
        token = str(uuid.uuid4())
        WORLD.client.set_app_account_token(bought["transactionId"], UpdateAppAccountTokenRequest(token))
        info = self.transaction(WORLD.client.get_transaction_info(bought["transactionId"]).signedTransactionInfo)
        self.assertEqual(info.appAccountToken, token)

    def test_finish_transaction_empties_the_unfinished_list(self):
        device = new_device()
        bought = buy(device, "coins100")
        unfinished = control("GET", f"/emulator/v1/devices/{device}/transactions/unfinished")
        self.assertEqual([t["transactionId"] for t in unfinished], [bought["transactionId"]])
        WORLD.client.finish_transaction(bought["transactionId"])
        self.assertEqual(control("GET", f"/emulator/v1/devices/{device}/transactions/unfinished"), [])


class NotificationTests(ConformanceCase):
    def test_test_notification_and_its_status(self):
        token = WORLD.client.request_test_notification().testNotificationToken
        deadline = time.monotonic() + 30
        while True:
            status = WORLD.client.get_test_notification_status(token)
            if status.sendAttempts or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        decoded = WORLD.verifier.verify_and_decode_notification(status.signedPayload)
        self.assertEqual(decoded.notificationType, NotificationTypeV2.TEST)
        self.assertTrue(status.sendAttempts)
        self.assertAPIError(lambda: WORLD.client.get_test_notification_status("no-such-token"), 404,
                            APIError.TEST_NOTIFICATION_NOT_FOUND)

    def test_every_notification_received_verifies(self):
        bought = buy(new_device(), "coins100")
        self.assertTrue(self.notifications_about(bought["transactionId"], NotificationTypeV2.ONE_TIME_CHARGE))
        for payload in list(WORLD.receiver.payloads):
            decoded = WORLD.verifier.verify_and_decode_notification(payload)
            self.assertIsNotNone(decoded.notificationUUID)

    def test_history_filters(self):
        bought = buy(new_device(), "coins100")
        now = int(time.time() * 1000)
        request = NotificationHistoryRequest(startDate=now - 3_600_000, endDate=now + 60_000,
                                             transactionId=bought["transactionId"])
        answer = WORLD.client.get_notification_history(None, request)
        decoded = [WORLD.verifier.verify_and_decode_notification(i.signedPayload)
                   for i in answer.notificationHistory]
        self.assertEqual([d.notificationType for d in decoded], [NotificationTypeV2.ONE_TIME_CHARGE])
        typed = WORLD.client.get_notification_history(None, NotificationHistoryRequest(
            startDate=now - 3_600_000, endDate=now + 60_000, notificationType=NotificationTypeV2.SUBSCRIBED,
            notificationSubtype=Subtype.INITIAL_BUY))
        for item in typed.notificationHistory:
            self.assertEqual(WORLD.verifier.verify_and_decode_notification(item.signedPayload).subtype,
                             Subtype.INITIAL_BUY)
        self.assertAPIError(lambda: WORLD.client.get_notification_history(None, NotificationHistoryRequest(
            startDate=now, endDate=now - 1)), 400, APIError.START_DATE_AFTER_END_DATE)


class NotificationLifecycleTests(ConformanceCase):
    """Every notification the emulator sends about a purchase, verified and decoded by the library."""

    def test_refund_decline_reversal_and_consumption_request(self):
        bought = buy(new_device(), "coins500")
        tid = bought["transactionId"]
        control("POST", f"/emulator/v1/transactions/{tid}/consumption-request")
        request = self.notifications_about(tid, NotificationTypeV2.CONSUMPTION_REQUEST)
        self.assertTrue(request)
        self.assertIsNotNone(request[-1].data.consumptionRequestReason)
        control("POST", f"/emulator/v1/transactions/{tid}/decline-refund")
        self.assertTrue(self.notifications_about(tid, NotificationTypeV2.REFUND_DECLINED))
        control("POST", f"/emulator/v1/transactions/{tid}/refund", {"percentage": 40000})
        control("POST", f"/emulator/v1/transactions/{tid}/refund")
        refunds = self.notifications_about(tid, NotificationTypeV2.REFUND, count=2)
        shares = sorted(self.transaction(n.data.signedTransactionInfo).revocationPercentage for n in refunds)
        self.assertEqual(shares, [40000, 100000])
        control("POST", f"/emulator/v1/transactions/{tid}/reverse-refund")
        reversed_ = self.notifications_about(tid, NotificationTypeV2.REFUND_REVERSED)
        self.assertTrue(reversed_)
        standing = self.transaction(reversed_[-1].data.signedTransactionInfo)
        self.assertIsNone(standing.revocationDate)
        self.assertIsNone(standing.revocationType)
        for notification in request + refunds + reversed_:
            self.assertEqual(notification.data.bundleId, WORLD.bundle_id)
            self.assertEqual(notification.data.environment, Environment.SANDBOX)

    def test_family_revoke(self):
        bought = buy(new_device(), "levelpack1")
        tid = bought["transactionId"]
        control("POST", f"/emulator/v1/transactions/{tid}/family-revoke")
        revoked = self.notifications_about(tid, NotificationTypeV2.REVOKE)
        self.assertTrue(revoked)
        payload = self.transaction(revoked[-1].data.signedTransactionInfo)
        self.assertEqual(payload.revocationType, RevocationType.FAMILY_REVOKE)
        self.assertIsNotNone(payload.revocationDate)


class SubscriptionTests(ConformanceCase):
    def test_subscribed_carries_renewal_info_and_statuses_answer(self):
        bought = buy(new_device(), "vip.monthly")
        tid = bought["transactionId"]
        subscribed = self.notifications_about(tid, NotificationTypeV2.SUBSCRIBED)
        self.assertTrue(subscribed)
        renewal = WORLD.verifier.verify_and_decode_renewal_info(subscribed[-1].data.signedRenewalInfo)
        self.assertEqual(renewal.originalTransactionId, tid)
        self.assertEqual(renewal.appTransactionId, bought["appTransactionId"])
        statuses = WORLD.client.get_all_subscription_statuses(tid)
        items = [item for group in statuses.data for item in group.lastTransactions]
        self.assertEqual([item.originalTransactionId for item in items], [tid])
        self.assertEqual(items[0].status, Status.ACTIVE)
        self.transaction(items[0].signedTransactionInfo)
        WORLD.verifier.verify_and_decode_renewal_info(items[0].signedRenewalInfo)
        expired = WORLD.client.get_all_subscription_statuses(tid, [Status.EXPIRED])
        self.assertEqual([i for g in expired.data or [] for i in g.lastTransactions], [])

    def status_of(self, tid: str):
        """The chain's status item and its decoded renewal info, through Apple's client."""
        statuses = WORLD.client.get_all_subscription_statuses(tid)
        items = [item for group in statuses.data for item in group.lastTransactions if item.originalTransactionId == tid]
        self.assertEqual(len(items), 1)
        return items[0], WORLD.verifier.verify_and_decode_renewal_info(items[0].signedRenewalInfo)

    def test_renewal_grace_period_recovery_and_expiry(self):
        device = new_device()
        tid = buy(device, "vip.monthly")["transactionId"]
        renewed = control("POST", f"/emulator/v1/subscriptions/{tid}/renew")
        renewal_id = renewed["transaction"]["transactionId"]
        did_renew = self.notifications_about(renewal_id, NotificationTypeV2.DID_RENEW)
        self.assertEqual(len(did_renew), 1)
        payload = self.transaction(did_renew[0].data.signedTransactionInfo)
        self.assertEqual(payload.originalTransactionId, tid)
        self.assertEqual(payload.transactionReason, TransactionReason.RENEWAL)
        item, renewal = self.status_of(tid)
        self.assertEqual((item.status, self.transaction(item.signedTransactionInfo).transactionId),
                         (Status.ACTIVE, renewal_id))

        control("POST", f"/emulator/v1/subscriptions/{tid}/fail-renewal", {"gracePeriod": True})
        item, renewal = self.status_of(tid)
        self.assertEqual(item.status, Status.BILLING_GRACE_PERIOD)
        self.assertTrue(renewal.isInBillingRetryPeriod)
        self.assertEqual(renewal.gracePeriodExpiresDate, payload.expiresDate + 16 * 86_400_000)
        control("POST", f"/emulator/v1/subscriptions/{tid}/expire-grace")
        self.assertEqual(self.status_of(tid)[0].status, Status.BILLING_RETRY)
        control("POST", f"/emulator/v1/subscriptions/{tid}/expire")
        item, renewal = self.status_of(tid)
        self.assertEqual(item.status, Status.EXPIRED)
        self.assertEqual(renewal.expirationIntent, ExpirationIntent.BILLING_ERROR)
        self.assertEqual(renewal.autoRenewStatus, AutoRenewStatus.OFF)
        expired = self.notifications_about(renewal_id, NotificationTypeV2.EXPIRED)
        self.assertEqual([n.subtype for n in expired], [Subtype.BILLING_RETRY])

    def test_upgrade_refunds_the_old_period_prorated_and_family_sharing(self):
        device = new_device()
        tid = buy(device, "vip.monthly")["transactionId"]
        upgraded = control("POST", f"/emulator/v1/devices/{device}/subscriptions/{tid}/change",
                           {"productId": "vip.premium"})
        new_id = upgraded["transaction"]["transactionId"]
        upgrade = self.notifications_about(new_id, NotificationTypeV2.DID_CHANGE_RENEWAL_PREF)
        self.assertEqual([n.subtype for n in upgrade], [Subtype.UPGRADE])
        old = self.transaction(WORLD.client.get_transaction_info(tid).signedTransactionInfo)
        self.assertIn(old.revocationType, [RevocationType.REFUND_PRORATED, RevocationType.REFUND_FULL])
        item, renewal = self.status_of(tid)
        self.assertEqual((item.status, renewal.productId, renewal.autoRenewProductId),
                         (Status.ACTIVE, "vip.premium", "vip.premium"))

        member = new_device()
        shared = control("POST", f"/emulator/v1/subscriptions/{tid}/family-share", {"deviceId": member})
        payload = self.transaction(shared["signedTransaction"])
        self.assertEqual(payload.inAppOwnershipType, InAppOwnershipType.FAMILY_SHARED)
        self.assertIsNone(payload.appAccountToken)
        self.assertEqual(self.status_of(payload.originalTransactionId)[0].status, Status.ACTIVE)
        restored = control("POST", f"/emulator/v1/devices/{member}/restore")
        self.assertEqual([t["transactionId"] for t in restored], [payload.transactionId])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("tests", nargs="*", help="test names to run (all by default)")
    arguments = parser.parse_args()
    os.environ["STOREKEEPER_BINARY"] = str(Path(arguments.binary).resolve())
    loader = unittest.TestLoader()
    module = sys.modules[__name__]
    suite = loader.loadTestsFromNames(arguments.tests, module) if arguments.tests else \
        loader.loadTestsFromModule(module)
    result = unittest.TextTestRunner(verbosity=2 if arguments.verbose else 1).run(suite)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())

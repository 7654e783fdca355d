#!/usr/bin/env python3
"""Writes the seed corpora under Fuzz/Corpus/ from the test vectors, plus hand-made edge cases.

The committed corpora are this script's output; rerun it only to change them:

    python3 Fuzz/make-seeds.py

Real vectors: the receipts and JWS of Tests/AppStoreVerificationTests/Resources (see the
README there for their origin). The 79 KB legacy sandbox receipt is left out: it would set
libFuzzer's input size for the whole run. Its payload contributes three in-app purchases.
"""

import base64
import hashlib
import hmac
import json
import pathlib
import shutil
import zlib

FUZZ = pathlib.Path(__file__).resolve().parent
RESOURCES = FUZZ.parent / "Tests" / "AppStoreVerificationTests" / "Resources"
CORPUS = FUZZ / "Corpus"


# --- DER/BER helpers ---------------------------------------------------------------------


def read_tlv(data, index):
    """(tag, contents start, contents end, next index) of the BER TLV at index."""
    tag = data[index]
    index += 1
    length = data[index]
    index += 1
    if length == 0x80:  # indefinite: contents run to the matching end-of-contents
        start = index
        while data[index : index + 2] != b"\x00\x00":
            _, _, _, index = read_tlv(data, index)
        return tag, start, index, index + 2
    if length & 0x80:
        octets = length & 0x7F
        length = int.from_bytes(data[index : index + octets], "big")
        index += octets
    return tag, index, index + length, index + length


def children(data, start, end):
    result = []
    while start < end:
        tlv = read_tlv(data, start)
        result.append(tlv)
        start = tlv[3]
    return result


def octet_string(data, tlv):
    """The bytes of a primitive or constructed (chunked) OCTET STRING."""
    tag, start, end, _ = tlv
    if tag == 0x04:
        return data[start:end]
    return b"".join(octet_string(data, child) for child in children(data, start, end))


def signed_content(der):
    """The signed content of a PKCS#7 ContentInfo holding SignedData."""
    content_info = read_tlv(der, 0)
    explicit = children(der, content_info[1], content_info[2])[1]
    signed_data = children(der, explicit[1], explicit[2])[0]
    encapsulated = children(der, signed_data[1], signed_data[2])[2]
    inner = children(der, encapsulated[1], encapsulated[2])[1]
    return octet_string(der, children(der, inner[1], inner[2])[0])


def tlv(tag, contents):
    length = len(contents)
    if length < 0x80:
        header = bytes([tag, length])
    else:
        octets = length.to_bytes((length.bit_length() + 7) // 8, "big")
        header = bytes([tag, 0x80 | len(octets)]) + octets
    return header + contents


def integer(value):
    return tlv(0x02, value.to_bytes(max(1, (value.bit_length() + 8) // 8), "big", signed=True))


def oid(encoded_hex):
    return tlv(0x06, bytes.fromhex(encoded_hex))


def sequence(*parts):
    return tlv(0x30, b"".join(parts))


def der_set(*parts):
    return tlv(0x31, b"".join(sorted(parts)))


def attribute(kind, value):
    return sequence(integer(kind), integer(1), tlv(0x04, value))


def utf8(text):
    return tlv(0x0C, text.encode())


def ia5(text):
    return tlv(0x16, text.encode())


SIGNED_DATA = "2a864886f70d010702"
DATA = "2a864886f70d010701"
SHA256 = "608648016503040201"
RSA = "2a864886f70d010101"


# --- writing -----------------------------------------------------------------------------


def write(target, name, data):
    directory = CORPUS / target
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_bytes(data if isinstance(data, bytes) else data.encode())


def receipts():
    payloads = {}
    for name in ["receipt-xcode", "receipt-xcode-with-purchases", "receipt-production", "receipt-sandbox-g5"]:
        der = base64.b64decode((RESOURCES / "receipts" / f"{name}.b64").read_text())
        write("FuzzReceiptContainer", f"{name}.der", der)
        payloads[name] = signed_content(der)
        write("FuzzReceiptPayload", f"{name}.payload", payloads[name])

    legacy = base64.b64decode((RESOURCES / "receipts" / "receipt-sandbox-legacy.b64").read_text())
    payload = signed_content(legacy)
    top = read_tlv(payload, 0)
    kept, purchases = [], 0
    for child in children(payload, top[1], top[2]):
        encoded = payload[child[1] : child[2]]
        kind = read_tlv(encoded, 0)
        kind_value = int.from_bytes(encoded[kind[1] : kind[2]], "big")
        whole = sequence(encoded)
        if kind_value == 17:
            purchases += 1
            if purchases > 3:
                continue
        kept.append(whole)
    write("FuzzReceiptPayload", "receipt-sandbox-legacy-3-purchases.payload", der_set(*kept))

    # Hand-made payloads: a minimal receipt, and one purchase with every field and odd dates.
    minimal = der_set(
        attribute(2, utf8("com.example.game")),
        attribute(3, utf8("1")),
        attribute(12, ia5("2024-02-23T10:11:12Z")),
    )
    write("FuzzReceiptPayload", "minimal.payload", minimal)
    purchase = der_set(
        attribute(1701, integer(2**62)),
        attribute(1702, utf8("coins.100")),
        attribute(1703, utf8("2000000123456789")),
        attribute(1704, ia5("2024-02-23T10:11:12.345+01:00")),
        attribute(1705, utf8("2000000000000001")),
        attribute(1706, ia5("2023-12-31T23:59:60-0530")),
        attribute(1708, ia5("")),
        attribute(1711, integer(-1)),
        attribute(1712, ia5("2024-02-29 00:00:00Z")),
        attribute(1713, integer(1)),
        attribute(1719, integer(0)),
        attribute(1721, tlv(0x13, b"OFFER")),
    )
    everything = der_set(
        attribute(0, utf8("ProductionSandbox")),
        attribute(2, utf8("com.example.game")),
        attribute(3, utf8("42.0")),
        attribute(4, bytes(8)),
        attribute(5, bytes(20)),
        attribute(12, ia5("2024-02-23T10:11:12Z")),
        attribute(17, purchase),
        attribute(18, ia5("2013-08-01T07:00:00Z")),
        attribute(19, utf8("1.0")),
        attribute(21, ia5("9999-12-31T23:59:59Z")),
    )
    write("FuzzReceiptPayload", "every-field.payload", everything)
    write("FuzzReceiptPayload", "empty-set.payload", b"\x31\x00")
    write("FuzzReceiptPayload", "indefinite-set.payload", b"\x31\x80" + minimal[2:] + b"\x00\x00")

    # Hand-made containers: a small SignedData around the minimal payload, one without
    # certificates, and deep indefinite-length nesting.
    def container(certificates):
        signer = sequence(
            integer(1),
            sequence(sequence(der_set(sequence(oid("550403"), utf8("Fuzz")))), integer(7)),
            sequence(oid(SHA256), b"\x05\x00"),
            sequence(oid(RSA), b"\x05\x00"),
            tlv(0x04, bytes(16)),
        )
        signed = sequence(
            integer(1),
            der_set(sequence(oid(SHA256), b"\x05\x00")),
            sequence(oid(DATA), tlv(0xA0, tlv(0x04, minimal))),
            *([tlv(0xA0, certificates)] if certificates is not None else []),
            der_set(signer),
        )
        return sequence(oid(SIGNED_DATA), tlv(0xA0, signed))

    write("FuzzReceiptContainer", "small-signed-data.der", container(sequence(sequence(integer(0)))))
    write("FuzzReceiptContainer", "no-certificates.der", container(None))
    write("FuzzReceiptContainer", "deep-nesting.ber", b"\x30\x80" * 200 + b"\x00\x00" * 200)


def jws():
    for path in sorted((RESOURCES / "jws").iterdir()) + sorted((RESOURCES / "apple-library-mock").iterdir()):
        if path.name.endswith(".der"):
            continue
        write("FuzzCompactJWS", path.name, path.read_bytes().strip())

    def b64url(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    header = b64url(b'{"alg":"ES256","x5c":["MA==","MA==","MA=="]}')
    payload = b64url(b'{"signedDate":1700000000000,"bundleId":"com.example","environment":"Sandbox"}')
    write("FuzzCompactJWS", "tiny.jws", f"{header}.{payload}.{b64url(bytes(64))}")
    write("FuzzCompactJWS", "whitespace.jws", f" \r\n\t{header}.{payload}.AA\n")
    # Raw JSON, which the target also reads as a payload, a header and API token claims.
    def segment(path, index):
        text = path.read_text().strip().split(".")[index]
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

    write("FuzzCompactJWS", "transaction-payload.json", segment(RESOURCES / "jws" / "QysmatApp-transaction-1.jws", 1))
    write("FuzzCompactJWS", "renewal-payload.json", segment(RESOURCES / "jws" / "go-iap-renewal-1.jws", 1))
    write("FuzzCompactJWS", "notification-payload.json", segment(RESOURCES / "apple-library-mock" / "testNotification", 1))
    write("FuzzCompactJWS", "header.json", segment(RESOURCES / "apple-library-mock" / "transactionInfo", 0))
    write(
        "FuzzCompactJWS",
        "api-claims.json",
        '{"iss":"fuzz","iat":1700000000,"exp":1700000600,"aud":"appstoreconnect-v1","bid":"com.example.fuzz"}',
    )
    # exp - iat overflows Int64 (and is far beyond Int64 as a Double).
    write(
        "FuzzCompactJWS",
        "api-claims-extreme.json",
        '{"iss":"fuzz","iat":-9223372036854775808,"exp":9223372036854775807,"aud":"appstoreconnect-v1",'
        '"bid":"com.example.fuzz"}',
    )
    api_header = b64url(b'{"alg":"ES256","kid":"FUZZKEY","typ":"JWT"}')
    claims = b64url(b'{"iss":"fuzz","iat":1700000000,"exp":1700000600,"aud":"appstoreconnect-v1","bid":"com.example.fuzz"}')
    write("FuzzCompactJWS", "api-token.jwt", f"{api_header}.{claims}.{b64url(bytes(64))}")


def journal():
    def line(record):
        text = json.dumps(record, sort_keys=True, separators=(",", ":"))
        return f"{zlib.crc32(text.encode()):08x} {text}\n"

    base = {
        "id": "7f0c1d2e-0000-4000-8000-000000000001",
        "playerId": "player-7",
        "productId": "coins100",
        "quantity": 1,
        "origin": "game",
        "state": {"created": {}},
        "transactionFinished": False,
        "attempts": 0,
        "createdAt": 1700000000000,
        "updatedAt": 1700000000000,
    }
    delivered = dict(
        base,
        id="7f0c1d2e-0000-4000-8000-000000000002",
        state={"delivered": {}},
        orderId="order-1",
        appAccountToken="6f1c0f8e-3c8a-4a1e-9b7d-2f9d3c1b0a11",
        transactionId="2000000123456789",
        signedTransaction="eyJhbGciOiJFUzI1NiJ9.e30.AA",
        delivery={
            "status": "delivered",
            "transactionId": "2000000123456789",
            "orderId": "order-1",
            "grants": {"coins": 100},
            "balances": {"coins": 9223372036854775807},
            "flags": ["unbound"],
        },
        attempts=3,
        updatedAt=1700000000123.5,
    )
    failed = dict(base, id="r3", origin="promoted", state={"failed": {"reason": "server_rejected \\u00e9\n"}})
    write("FuzzJournalLine", "created.journal", line(base))
    write("FuzzJournalLine", "delivered.journal", line(delivered))
    write("FuzzJournalLine", "failed.journal", line(failed))
    corrupted = line(base) + line(delivered).replace("coins100", "coins999") + line(failed)[:40] + "\n"
    write("FuzzJournalLine", "damaged.journal", corrupted)


def tokens():
    secret = b"fuzzing-secret"

    def b64url(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    def token(header, claims, key=secret):
        signing_input = f"{b64url(header.encode())}.{b64url(claims.encode())}"
        mac = hmac.new(key, signing_input.encode(), hashlib.sha256).digest()
        return f"{signing_input}.{b64url(mac)}"

    hs256 = '{"alg":"HS256","typ":"JWT"}'
    write("FuzzPlayerToken", "valid.jwt", token(hs256, '{"sub":"player-7","exp":1700003600}'))
    write("FuzzPlayerToken", "expired.jwt", token(hs256, '{"sub":"player-7","exp":1600000000}'))
    write("FuzzPlayerToken", "not-yet.jwt", token(hs256, '{"sub":"p","exp":1800000000,"nbf":1750000000}'))
    write("FuzzPlayerToken", "no-sub.jwt", token(hs256, '{"exp":1800000000.5}'))
    write("FuzzPlayerToken", "wrong-key.jwt", token(hs256, '{"sub":"p","exp":1800000000}', key=b"other"))
    write("FuzzPlayerToken", "alg-none.jwt", token('{"alg":"none"}', '{"sub":"p","exp":1800000000}'))
    write("FuzzPlayerToken", "extreme-times.jwt", token(hs256, '{"sub":"p","exp":1e308,"nbf":-1e308}'))
    write("FuzzPlayerToken", "claims.json", '{"sub":"player-7","exp":1700003600,"nbf":1699999000}')


def main():
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    receipts()
    jws()
    journal()
    tokens()


if __name__ == "__main__":
    main()

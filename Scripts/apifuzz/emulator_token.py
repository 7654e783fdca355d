#!/usr/bin/env python3
"""Mints an App Store Server API token for a running StoreKeeper emulator.

Fetches the key from GET {url}/emulator/v1/server-api-key and prints an ES256 JWT the
emulator accepts (header kid; claims iss, iat, exp, aud "appstoreconnect-v1", bid), for
`st run ... -H "Authorization: Bearer $(python3 Scripts/apifuzz/emulator_token.py)"`.

Standard library only: the P-256 signature is computed here (RFC 6979 deterministic k).
"""

import argparse
import base64
import hashlib
import hmac
import json
import time
import urllib.request

# NIST P-256.
P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
A = P - 3
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)


def point_add(p, q):
    if p is None:
        return q
    if q is None:
        return p
    if p[0] == q[0] and (p[1] + q[1]) % P == 0:
        return None
    if p == q:
        slope = (3 * p[0] * p[0] + A) * pow(2 * p[1], -1, P) % P
    else:
        slope = (q[1] - p[1]) * pow(q[0] - p[0], -1, P) % P
    x = (slope * slope - p[0] - q[0]) % P
    return x, (slope * (p[0] - x) - p[1]) % P


def point_multiply(k, point):
    result = None
    while k:
        if k & 1:
            result = point_add(result, point)
        point = point_add(point, point)
        k >>= 1
    return result


def der_read(data, offset):
    """One DER element at offset: (tag, content, offset after it)."""
    tag = data[offset]
    length = data[offset + 1]
    offset += 2
    if length & 0x80:
        count = length & 0x7F
        length = int.from_bytes(data[offset : offset + count], "big")
        offset += count
    return tag, data[offset : offset + length], offset + length


def private_scalar(pem):
    """The private key of a PKCS#8 `PRIVATE KEY` or SEC1 `EC PRIVATE KEY` PEM block."""
    body = "".join(line for line in pem.strip().splitlines() if not line.startswith("-----"))
    der = base64.b64decode(body)
    _, sequence, _ = der_read(der, 0)
    _, _, offset = der_read(sequence, 0)  # version
    tag, content, offset = der_read(sequence, offset)
    if tag == 0x30:  # PKCS#8: AlgorithmIdentifier, then OCTET STRING holding the SEC1 key
        _, sec1, _ = der_read(sequence, offset)
        _, sequence, _ = der_read(sec1, 0)
        _, _, offset = der_read(sequence, 0)
        tag, content, offset = der_read(sequence, offset)
    if tag != 0x04:
        raise ValueError("not a P-256 private key")
    return int.from_bytes(content, "big")


def rfc6979_k(secret, digest):
    """The deterministic nonce of RFC 6979 §3.2 for SHA-256."""
    x = secret.to_bytes(32, "big")
    h = (int.from_bytes(digest, "big") % N).to_bytes(32, "big")
    v = b"\x01" * 32
    k = b"\x00" * 32
    k = hmac.new(k, v + b"\x00" + x + h, hashlib.sha256).digest()
    v = hmac.new(k, v, hashlib.sha256).digest()
    k = hmac.new(k, v + b"\x01" + x + h, hashlib.sha256).digest()
    v = hmac.new(k, v, hashlib.sha256).digest()
    while True:
        v = hmac.new(k, v, hashlib.sha256).digest()
        candidate = int.from_bytes(v, "big")
        if 1 <= candidate < N:
            return candidate
        k = hmac.new(k, v + b"\x00", hashlib.sha256).digest()
        v = hmac.new(k, v, hashlib.sha256).digest()


def es256(secret, message):
    """The JWS ES256 signature of message: r || s, 32 bytes each."""
    digest = hashlib.sha256(message).digest()
    z = int.from_bytes(digest, "big")
    k = rfc6979_k(secret, digest)
    r = point_multiply(k, G)[0] % N
    s = pow(k, -1, N) * (z + r * secret) % N
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def mint(key, lifetime):
    now = int(time.time())
    header = {"alg": "ES256", "kid": key["keyId"], "typ": "JWT"}
    claims = {
        "iss": key["issuerId"],
        "iat": now,
        "exp": now + lifetime,
        "aud": "appstoreconnect-v1",
        "bid": key["bundleId"],
    }
    signing_input = ".".join(
        b64url(json.dumps(part, separators=(",", ":")).encode()) for part in (header, claims)
    )
    signature = es256(private_scalar(key["privateKey"]), signing_input.encode())
    return signing_input + "." + b64url(signature)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:18190", help="the emulator's base URL")
    parser.add_argument(
        "--lifetime", type=int, default=3600, help="seconds until exp; the emulator accepts at most 3600"
    )
    arguments = parser.parse_args()
    with urllib.request.urlopen(arguments.url.rstrip("/") + "/emulator/v1/server-api-key") as response:
        key = json.load(response)
    print(mint(key, arguments.lifetime))


if __name__ == "__main__":
    main()

"""Apple's App Store Server API hosts, answered by the emulator.

Apple's library sends its requests to fixed URLs (https://api.storekit-sandbox.apple.com,
https://api.storekit.apple.com) through `requests`, which honours the standard proxy and
CA-bundle environment variables. This module is the stand-in network the conformance test
puts between the two, so the library runs unchanged:

- a certificate authority made for this run, which issues a TLS certificate for each
  Apple host (the client trusts it through REQUESTS_CA_BUNDLE);
- an HTTPS proxy (HTTPS_PROXY) that answers CONNECT for Apple's hosts only, terminates TLS
  with that certificate, and forwards each HTTP request to the emulator, the host mapped
  to the emulator's environment prefix (/sandbox or /production).

Any other CONNECT target is refused (403), so nothing leaves the machine.
"""

import datetime
import http.client
import socketserver
import ssl
import threading
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

# Apple's hosts (current and the older names Apple still serves) and the emulator prefix
# of each one's environment.
PREFIXES = {
    "api.storekit-sandbox.apple.com": "/sandbox",
    "api.storekit-sandbox.itunes.apple.com": "/sandbox",
    "api.storekit.apple.com": "/production",
    "api.storekit.itunes.apple.com": "/production",
}

# Headers that describe one hop, not the request.
HOP_HEADERS = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"}


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


class StandInAuthority:
    """A CA made for one run and a TLS certificate for every host in PREFIXES."""

    def __init__(self, directory: Path):
        now = datetime.datetime.now(datetime.timezone.utc)
        ca_key = ec.generate_private_key(ec.SECP256R1())
        ca = (
            x509.CertificateBuilder()
            .subject_name(_name("StoreKeeper conformance stand-in CA"))
            .issuer_name(_name("StoreKeeper conformance stand-in CA"))
            .public_key(ca_key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(
                x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256())
        )
        host_key = ec.generate_private_key(ec.SECP256R1())
        host = (
            x509.CertificateBuilder()
            .subject_name(_name(next(iter(PREFIXES))))
            .issuer_name(ca.subject)
            .public_key(host_key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(h) for h in PREFIXES]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256())
        )
        self.ca_bundle = directory / "stand-in-ca.pem"
        self.ca_bundle.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
        chain = directory / "stand-in-host.pem"
        chain.write_bytes(
            host.public_bytes(serialization.Encoding.PEM)
            + host_key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        )
        self.server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.server_context.load_cert_chain(chain)


class _ProxyHandler(socketserver.StreamRequestHandler):
    server: "AppleHostsProxy"

    def handle(self) -> None:
        request_line = self.rfile.readline(65536).decode("latin-1").strip()
        headers = self._read_headers(self.rfile)
        method, _, rest = request_line.partition(" ")
        target = rest.split(" ")[0]
        host = target.rsplit(":", 1)[0].lower()
        if method != "CONNECT" or host not in PREFIXES:
            self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            self.server.refused.append(request_line)
            return
        del headers
        self.wfile.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        self.wfile.flush()
        with self.server.authority.server_context.wrap_socket(self.connection, server_side=True) as tls:
            reader = tls.makefile("rb")
            writer = tls.makefile("wb")
            while self._forward_one(reader, writer, PREFIXES[host]):
                pass

    @staticmethod
    def _read_headers(reader) -> list:
        headers = []
        while True:
            line = reader.readline(65536).decode("latin-1")
            if line in ("\r\n", "\n", ""):
                return headers
            name, _, value = line.partition(":")
            headers.append((name.strip(), value.strip()))

    def _forward_one(self, reader, writer, prefix: str) -> bool:
        """Forwards one request; False when the client closed the connection."""
        request_line = reader.readline(65536).decode("latin-1").strip()
        if not request_line:
            return False
        method, path, _ = request_line.split(" ", 2)
        headers = self._read_headers(reader)
        length = next((int(v) for k, v in headers if k.lower() == "content-length"), 0)
        body = reader.read(length) if length else None
        upstream = http.client.HTTPConnection("127.0.0.1", self.server.emulator_port, timeout=60)
        try:
            forwarded = {k: v for k, v in headers if k.lower() not in HOP_HEADERS | {"host"}}
            upstream.request(method, prefix + path, body=body, headers=forwarded)
            answer = upstream.getresponse()
            payload = answer.read()
            self.server.forwarded.append((method, prefix + path, answer.status))
            writer.write(f"HTTP/1.1 {answer.status} {answer.reason}\r\n".encode("latin-1"))
            for name, value in answer.getheaders():
                if name.lower() not in HOP_HEADERS | {"content-length"}:
                    writer.write(f"{name}: {value}\r\n".encode("latin-1"))
            writer.write(f"Content-Length: {len(payload)}\r\n\r\n".encode("latin-1"))
            writer.write(payload)
            writer.flush()
        finally:
            upstream.close()
        return True


class AppleHostsProxy(socketserver.ThreadingTCPServer):
    """The HTTPS proxy for Apple's hosts, serving on 127.0.0.1 in a daemon thread."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, emulator_port: int, directory: Path):
        super().__init__(("127.0.0.1", 0), _ProxyHandler)
        self.emulator_port = emulator_port
        self.authority = StandInAuthority(directory)
        self.forwarded: list = []
        self.refused: list = []
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def environment(self) -> dict:
        """The variables that route `requests` through this proxy and trust its CA."""
        return {
            "HTTPS_PROXY": self.url,
            "https_proxy": self.url,
            "REQUESTS_CA_BUNDLE": str(self.authority.ca_bundle),
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
        }

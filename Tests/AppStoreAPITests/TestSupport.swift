import AppStoreAPI
import AppStoreModel
import AppStoreSigning
import AppStoreVerification
import Foundation
import Testing

/// Identifiers and keys shared by the tests.
enum Fixture {
    static let issuerId = "57246542-96fe-1a63-e053-0824d011072a"
    static let keyId = "2X9R4HXF34"
    static let bundleId = "com.example.storekeeper"

    /// A fixed instant: 2024-03-01 12:00:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_709_294_400)

    /// A P-256 key in PKCS#8 PEM, as in an App Store Connect `.p8` file (made for these
    /// tests with `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`).
    static let p8PEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgFvVusTzbPRsh5iwN
        LCPjbNWFuPlJd7h7BzBa89Xj7ZChRANCAAS+FTeAuh0Pp4PV2jfzYotYtzhHNJ0I
        jpu1XWwGhDlD2CeI98YHFXGkRDZiGEV89AqUotYJor9pfN0rpHLZXSM0
        -----END PRIVATE KEY-----
        """

    static func key() throws -> AppStoreServerAPIKey {
        try AppStoreServerAPIKey(issuerId: issuerId, keyId: keyId, bundleId: bundleId, privateKeyPEM: p8PEM)
    }

    static func verifier(for key: AppStoreServerAPIKey) -> AppStoreServerAPITokenVerifier {
        AppStoreServerAPITokenVerifier(
            key: .init(keyId: key.keyId, issuerId: key.issuerId, bundleId: key.bundleId, publicKey: key.publicKey))
    }
}

/// A transport that records every request and answers from a handler, by request index.
actor RecordingTransport: HTTPTransport {
    private(set) var requests: [HTTPRequestData] = []
    private let handler: @Sendable (HTTPRequestData, Int) throws -> HTTPResponseData

    init(_ handler: @escaping @Sendable (HTTPRequestData, Int) throws -> HTTPResponseData) {
        self.handler = handler
    }

    /// A transport that answers the given responses in order (the last one repeats).
    init(responses: [HTTPResponseData]) {
        self.init { _, index in responses[min(index, responses.count - 1)] }
    }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        let index = requests.count
        requests.append(request)
        return try handler(request, index)
    }
}

/// An error a fake transport throws to simulate a connection failure.
struct ConnectionRefused: Error {}

extension HTTPResponseData {
    /// A JSON response from a JSON text.
    static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> HTTPResponseData {
        var all = headers
        all["Content-Type"] = "application/json"
        return HTTPResponseData(status: status, headers: all, body: Data(text.utf8))
    }
}

extension HTTPRequestData {
    /// The body as text; empty when there is none.
    var bodyText: String { body.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// The bearer token of the `Authorization` header.
    var bearerToken: String? {
        guard let value = headerValue("authorization"), value.hasPrefix("Bearer ") else { return nil }
        return String(value.dropFirst(7))
    }
}

/// Decodes unpadded base64url.
func base64URLDecode(_ text: some StringProtocol) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64)
}

/// Encodes unpadded base64url.
func base64URLEncode(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

import AppStoreEmulator
import EmulatorTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import PlayEmulator
import PlayModel
import PlaySigning
import Testing

/// An App Store emulator on a fresh data directory, served over HTTP on a free loopback
/// port, with its Play side's keys provided before it starts: two RSA-2048 keys made once
/// per test process, as ``TestEmulatorDirectory`` does for the receipt chain.
struct PlayFixture {
    /// The Play keys' PEM, made once.
    private static let keyPEMs = Result {
        try PlayEmulator.keyFileNames.map { _ in RSAKeyPEM.pkcs8PEM(of: try RSAKeyPEM.generate()) }
    }

    let directory: URL
    let emulator: AppStoreEmulator

    /// A fresh directory holding the Play keys, for a ``PlayEmulator`` made directly.
    static func keyDirectory() throws -> URL {
        let directory = try TestEmulatorDirectory.make("play-keys")
        for (name, pem) in zip(PlayEmulator.keyFileNames, try keyPEMs.get()) {
            try pem.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory
    }

    init(baseURL: URL? = nil) async throws {
        directory = try TestEmulatorDirectory.make("play")
        for (name, pem) in zip(PlayEmulator.keyFileNames, try Self.keyPEMs.get()) {
            try pem.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        emulator = try await AppStoreEmulator(
            configuration: EmulatorConfiguration(
                dataDirectory: directory, timeScale: 0.00001, runsSubscriptionClock: false, baseURL: baseURL))
    }

    /// Runs `body` with the emulator on a free port, beside `inbox`'s push endpoint when
    /// given; removes the data directory afterwards.
    func live(
        inbox: PushInbox? = nil, _ body: @Sendable (_ client: PlayClient) async throws -> Void
    ) async throws {
        let router = Router()
        emulator.addRoutes(to: router)
        inbox?.addRoute(to: router)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        defer { try? FileManager.default.removeItem(at: directory) }
        try await app.test(.live) { client in
            try await body(PlayClient(client: client, port: try #require(client.port)))
        }
        await emulator.shutdown()
    }
}

/// Raw HTTP calls to the Play side, the way a server and a device make them.
struct PlayClient: Sendable {
    let client: any TestClientProtocol
    let port: Int

    static let scope = "https://www.googleapis.com/auth/androidpublisher"

    /// A JSON request; the status and the body as a JSON object (empty when there is none).
    func call(
        _ method: HTTPRequest.Method, _ path: String, json: (any Encodable)? = nil, bearer: String? = nil
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        var headers: HTTPFields = [:]
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        var body: ByteBuffer?
        if let json {
            headers[.contentType] = "application/json"
            body = ByteBuffer(bytes: try JSONEncoder().encode(json))
        }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body)
        let bytes = Data(response.body.readableBytesView)
        let object = bytes.isEmpty ? [:] : (try JSONSerialization.jsonObject(with: bytes) as? [String: Any] ?? [:])
        return (response.status, object)
    }

    /// A form-encoded POST to `/token`.
    func token(form: [(String, String)]) async throws -> (HTTPResponse.Status, [String: Any]) {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let text = form.map {
            "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)"
        }.joined(separator: "&")
        let response = try await client.execute(
            uri: "/token", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: text))
        let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        return (response.status, object ?? [:])
    }

    /// The service account the emulator issues.
    func serviceAccount() async throws -> ServiceAccountKey {
        let response = try await client.execute(uri: "/emulator/v1/play/service-account", method: .get)
        #expect(response.status == .ok)
        return try JSONDecoder().decode(ServiceAccountKey.self, from: Data(response.body.readableBytesView))
    }

    /// An assertion signed with `account`'s key, with claims changed by `adjust`.
    func assertion(
        _ account: ServiceAccountKey, keyId: String? = nil, adjust: (inout [String: AnyEncodable]) -> Void = { _ in }
    ) throws -> String {
        let now = Int64(Date().timeIntervalSince1970)
        var claims: [String: AnyEncodable] = [
            "iss": .init(account.clientEmail), "aud": .init(account.tokenUri), "scope": .init(Self.scope),
            "iat": .init(now), "exp": .init(now + 3600),
        ]
        adjust(&claims)
        return try RS256JWT.sign(
            claims, with: try RSAKeyPEM.privateKey(pem: account.privateKey), keyId: keyId ?? account.privateKeyId)
    }

    /// An access token for the issued service account.
    func accessToken() async throws -> String {
        let account = try await serviceAccount()
        let (status, answer) = try await token(form: [
            ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", try assertion(account)),
        ])
        #expect(status == .ok, "\(answer)")
        return try #require(answer["access_token"] as? String)
    }

    /// The products path of a purchase token.
    static func tokenPath(_ token: String, product: String = "coins100", package: String = "com.example.game")
        -> String
    {
        "/androidpublisher/v3/applications/\(package)/purchases/products/\(product)/tokens/\(token)"
    }
}

/// A claim value of any encodable type.
struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

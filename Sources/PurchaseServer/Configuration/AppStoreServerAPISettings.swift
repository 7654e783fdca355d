import Foundation

/// The App Store Server API key and where to reach the API.
public struct AppStoreServerAPISettings: Codable, Hashable, Sendable {
    /// The base URL: `https://api.storekit.apple.com` (production) or
    /// `https://api.storekit-sandbox.apple.com`; the emulator's in tests and `--dev`.
    public var baseURL: URL
    /// The key's issuer id (App Store Connect).
    public var issuerId: String
    /// The key id.
    public var keyId: String
    /// The key's PEM (`-----BEGIN PRIVATE KEY-----`), or nil with ``privateKeyFile``.
    public var privateKeyPEM: String?
    /// A file holding the PEM (Apple's `.p8`).
    public var privateKeyFile: String?

    /// Creates settings.
    public init(
        baseURL: URL, issuerId: String, keyId: String, privateKeyPEM: String? = nil, privateKeyFile: String? = nil
    ) {
        self.baseURL = baseURL
        self.issuerId = issuerId
        self.keyId = keyId
        self.privateKeyPEM = privateKeyPEM
        self.privateKeyFile = privateKeyFile
    }

    /// The PEM, read from ``privateKeyFile`` when not given inline.
    func resolvedPEM() throws -> String {
        if let privateKeyPEM { return privateKeyPEM }
        guard let privateKeyFile else {
            throw ConfigurationError("appStoreServerAPI needs privateKeyPEM or privateKeyFile")
        }
        guard let bytes = FileManager.default.contents(atPath: privateKeyFile) else {
            throw ConfigurationError(
                "cannot read appStoreServerAPI.privateKeyFile \(privateKeyFile): missing, unreadable or a directory")
        }
        guard let pem = String(data: bytes, encoding: .utf8) else {
            throw ConfigurationError("appStoreServerAPI.privateKeyFile \(privateKeyFile) is not PEM text")
        }
        return pem
    }
}

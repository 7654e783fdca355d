import AppStoreSigning
import Foundation

/// The emulator's signing identity: an ES256 chain for JWS, an RSA chain for receipts,
/// and the App Store Server API key it accepts. Created on first start and kept in the
/// data directory, so a restart signs with the same roots.
public struct EmulatorIdentity: Sendable {
    /// Signs transactions and notifications.
    public let jwsChain: SigningChain
    /// Signs app receipts.
    public let receiptChain: SigningChain
    /// The key App Store Server API clients must sign their tokens with.
    public let apiKey: AppStoreServerAPIKey

    /// Loads the identity from `directory`, creating what is missing.
    static func loadOrCreate(in directory: URL, bundleId: String) throws -> EmulatorIdentity {
        let jwsChain = try chain(.es256, file: directory.appendingPathComponent("jws-chain.pem"))
        let receiptChain = try chain(.rsa2048, file: directory.appendingPathComponent("receipt-chain.pem"))
        let keyFile = directory.appendingPathComponent("server-api-key.json")
        let apiKey: AppStoreServerAPIKey
        if let data = FileManager.default.contents(atPath: keyFile.path) {
            apiKey = try JSONDecoder().decode(StoredAPIKey.self, from: data).key()
        } else {
            apiKey = AppStoreServerAPIKey.generate(
                issuerId: UUID().uuidString.lowercased(),
                keyId: String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10)),
                bundleId: bundleId
            )
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(StoredAPIKey(apiKey)).write(to: keyFile, options: .atomic)
        }
        return EmulatorIdentity(jwsChain: jwsChain, receiptChain: receiptChain, apiKey: apiKey)
    }

    private static func chain(_ algorithm: SigningKeyAlgorithm, file: URL) throws -> SigningChain {
        if let pem = try? String(contentsOf: file, encoding: .utf8) {
            return try SigningChain(pemRepresentation: pem)
        }
        let chain = try SigningChain.generate(algorithm)
        try chain.pemRepresentation.write(to: file, atomically: true, encoding: .utf8)
        return chain
    }

    /// The API key as kept on disk.
    private struct StoredAPIKey: Codable {
        var issuerId: String
        var keyId: String
        var bundleId: String
        var privateKeyPEM: String

        init(_ key: AppStoreServerAPIKey) {
            issuerId = key.issuerId
            keyId = key.keyId
            bundleId = key.bundleId
            privateKeyPEM = key.privateKeyPEM
        }

        func key() throws -> AppStoreServerAPIKey {
            try AppStoreServerAPIKey(issuerId: issuerId, keyId: keyId, bundleId: bundleId, privateKeyPEM: privateKeyPEM)
        }
    }
}

import AppStoreSigning
import Crypto
import Foundation
import X509

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
    /// The private key of ``jwsChain``'s intermediate, with which the OCSP responder signs
    /// its answers; `nil` for a data directory created before the responder existed,
    /// whose chain keeps its bytes and so cannot be answered for.
    public let jwsIntermediateKey: P256.Signing.PrivateKey?

    /// The file in the data directory that holds the receipt chain (certificates and the
    /// leaf's key, PEM); a directory may be given one before the first start.
    public static let receiptChainFileName = "receipt-chain.pem"

    /// Loads the identity from `directory`, creating what is missing.
    static func loadOrCreate(in directory: URL, bundleId: String) throws -> EmulatorIdentity {
        let (jwsChain, jwsIntermediateKey) = try jwsChain(
            file: directory.appendingPathComponent("jws-chain.pem"),
            keyFile: directory.appendingPathComponent("jws-intermediate-key.pem"))
        let receiptChain = try chain(.rsa2048, file: directory.appendingPathComponent(receiptChainFileName))
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
        return EmulatorIdentity(
            jwsChain: jwsChain, receiptChain: receiptChain, apiKey: apiKey, jwsIntermediateKey: jwsIntermediateKey)
    }

    /// The JWS chain and its intermediate's key (when kept, and the intermediate's), created
    /// together when missing.
    private static func jwsChain(file: URL, keyFile: URL) throws -> (SigningChain, P256.Signing.PrivateKey?) {
        if let pem = try? String(contentsOf: file, encoding: .utf8) {
            let chain = try SigningChain(pemRepresentation: pem)
            let keyPEM = try? String(contentsOf: keyFile, encoding: .utf8)
            let key = try keyPEM.map(P256.Signing.PrivateKey.init(pemRepresentation:))
            return (
                chain, key.flatMap { Certificate.PublicKey($0.publicKey) == chain.intermediate.publicKey ? $0 : nil }
            )
        }
        let (chain, intermediateKey) = try SigningChain.generateES256KeepingIntermediateKey()
        try intermediateKey.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
        try chain.pemRepresentation.write(to: file, atomically: true, encoding: .utf8)
        return (chain, intermediateKey)
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

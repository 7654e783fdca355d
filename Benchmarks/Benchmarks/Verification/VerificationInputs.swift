import AppStoreModel
import AppStoreSigning
import AppStoreVerification
import Crypto
import Foundation

/// A P-256 signature over the signing input of ``OwnJWS`` (about 3.8 KB: the protected
/// header carries three certificates), and the key that verifies it.
struct SignedInput {
    let key: P256.Signing.PublicKey
    let signature: P256.Signing.ECDSASignature
    let input: Data

    /// Signs the signing input of a fresh ``OwnJWS`` with a new key.
    static func make() throws -> SignedInput {
        let jws = try OwnJWS.make().jws
        let input = Data(jws.split(separator: ".").prefix(2).joined(separator: ".").utf8)
        let key = P256.Signing.PrivateKey()
        return SignedInput(key: key.publicKey, signature: try key.signature(for: input), input: input)
    }
}

/// A signed transaction and the verifier that accepts it, its chain cache already warm.
struct VerifiableJWS {
    let jws: String
    let verifier: JWSVerifier

    /// Verifies once, so that the chain is cached and the input known to verify.
    func warmed() async throws -> VerifiableJWS {
        _ = try await verifier.verifyTransaction(jws)
        return self
    }
}

/// A receipt and the verifier that accepts it, its chain cache already warm.
struct VerifiableReceipt {
    let receipt: [UInt8]
    let verifier: ReceiptVerifier

    /// Verifies once, so that the chain is cached and the receipt known to verify.
    func warmed() async throws -> VerifiableReceipt {
        _ = try await verifier.verify(receipt)
        return self
    }
}

/// A transaction signed by a fresh ES256 chain of StoreKeeper's own, shaped like Apple's.
enum OwnJWS {
    /// The signed transaction, verified against the chain's root.
    static func make() throws -> VerifiableJWS {
        let chain = try SigningChain.generate(.es256)
        let jws = try JWSSigner(chain: chain).sign(transaction())
        return VerifiableJWS(jws: jws, verifier: JWSVerifier(roots: TrustRoots([chain.root])))
    }

    /// A consumable purchase signed now.
    private static func transaction() -> JWSTransactionDecodedPayload {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return JWSTransactionDecodedPayload(
            transactionId: "2000000302596403",
            originalTransactionId: "2000000302596403",
            bundleId: "com.example.game",
            productId: "com.example.game.coins100",
            purchaseDate: now,
            originalPurchaseDate: now,
            quantity: 1,
            type: .consumable,
            appAccountToken: UUID().uuidString.lowercased(),
            inAppOwnershipType: .purchased,
            signedDate: now,
            environment: .sandbox,
            storefront: "USA",
            storefrontId: "143441",
            transactionReason: .purchase,
            price: 990,
            currency: "USD"
        )
    }
}

/// The real Apple-signed vectors that `storekeeper bench` times, read from its resources
/// in the source tree; both verify against Apple's roots at their own signing time.
enum AppleVectors {
    /// A Sandbox transaction signed by Apple's G3 chain, with a verifier trusting Apple's roots.
    static func transaction() throws -> VerifiableJWS {
        let jws = String(decoding: try resource("QysmatApp-transaction-1.jws"), as: UTF8.self)
        return VerifiableJWS(jws: jws, verifier: JWSVerifier())
    }

    /// A production receipt of 2024-02-23 with four in-app purchases, as base64 text, with a
    /// verifier trusting Apple's roots.
    static func productionReceipt() throws -> VerifiableReceipt {
        VerifiableReceipt(receipt: Array(try resource("receipt-production.b64")), verifier: ReceiptVerifier())
    }

    /// A file of `Sources/storekeeper/Resources` in the repository holding this file.
    private static func resource(_ name: String) throws -> Data {
        var repository = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { repository.deleteLastPathComponent() }
        return try Data(contentsOf: repository.appending(path: "Sources/storekeeper/Resources/\(name)"))
    }
}

import AppStoreModel
import AppStoreSigning
import Foundation
import PurchaseSDK
import PurchaseServer

/// A malicious device with a genuine player account ("mallory"): it reports transactions it
/// signed under its own look-alike Apple chain, genuine transactions it tampered with, and
/// other players' genuine signed transactions it captured. None may be delivered.
actor Attacker {
    /// The attacker's player id.
    static let playerId = "mallory"

    private let baseURL: URL
    private let token: String
    private let bundleId: String
    private let signer: JWSSigner
    private let book: PaymentBook
    private let tally: FaultTally
    private let transport: DeviceHTTPTransport
    private var captured: [String] = []
    private var forgeries = 0

    init(
        baseURL: URL, transport: DeviceHTTPTransport, playerSecret: String, bundleId: String, book: PaymentBook,
        tally: FaultTally
    ) throws {
        self.baseURL = baseURL
        self.transport = transport
        token = PlayerTokenVerifier.issue(playerId: Self.playerId, secret: playerSecret)
        self.bundleId = bundleId
        signer = try JWSSigner(chain: SigningChain.generate(.es256, options: .appleNamed(for: .es256)))
        self.book = book
        self.tally = tally
    }

    /// Keeps a victim's signed transaction for a later replay (a compromised device or a
    /// leaked log).
    func capture(_ signedTransaction: String) {
        if captured.count >= 64 { captured.removeFirst() }
        captured.append(signedTransaction)
    }

    /// Reports a forgery: every other one signed under the attacker's own chain, the rest a
    /// captured transaction with its payload rewritten and Apple's signature kept.
    func forge(productId: String) async {
        forgeries += 1
        let transactionId = "forged-\(forgeries)-\(UUID().uuidString.prefix(8))"
        let jws: String
        if forgeries % 2 == 1 || captured.isEmpty {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let payload = JWSTransactionDecodedPayload(
                transactionId: transactionId, originalTransactionId: transactionId, bundleId: bundleId,
                productId: productId, purchaseDate: now, originalPurchaseDate: now, quantity: 1, type: .consumable,
                inAppOwnershipType: .purchased, signedDate: now, environment: .sandbox)
            guard let signed = try? signer.sign(payload) else { return }
            jws = signed
        } else {
            jws = Self.tampered(captured.randomElement()!, transactionId: transactionId)
        }
        await tally.count(.forgedReport)
        await book.note("mallory reports a forged transaction", about: transactionId)
        await report(jws)
    }

    /// Reports another player's captured signed transaction as the attacker's own.
    func replay() async {
        guard let jws = captured.randomElement() else { return }
        await tally.count(.replayedReport)
        await report(jws)
    }

    /// The JWS with its payload's transaction id replaced, header and signature kept.
    private static func tampered(_ jws: String, transactionId: String) -> String {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { return jws }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let payload = Data(base64Encoded: base64),
            let object = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any],
            let rewritten = try? JSONSerialization.data(
                withJSONObject: object.merging(["transactionId": transactionId]) { $1 })
        else { return jws }
        return [parts[0], rewritten.base64URLEncodedString, parts[2]].joined(separator: ".")
    }

    private func report(_ signedTransaction: String) async {
        guard let body = try? JSONEncoder().encode(["signedTransaction": signedTransaction]) else { return }
        _ = try? await transport.send(
            NetworkRequest(
                method: "POST", url: baseURL.appendingPathComponent("v1/purchases"),
                headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"], body: body))
    }
}

import AppStoreEmulator
import AppStoreModel
import Foundation
import Testing

/// One entitlement as `GET /v1/players/me/entitlements` answers it.
struct EntitlementReply: Decodable, Sendable, Equatable {
    var entitlementId: String
    var productId: String
    var state: String
    var entitled: Bool
    var since: Int64
    var until: Int64?
    var autoRenew: Bool?
    var autoRenewProductId: String?
    var ownership: String
    var transactionId: String
    var originalTransactionId: String
    var environment: String
}

/// `GET /v1/players/me/entitlements`'s answer.
struct EntitlementListReply: Decodable, Sendable {
    var playerId: String
    var asOf: Int64
    var entitlements: [EntitlementReply]
}

/// `POST /v1/purchases/restore`'s answer.
struct RestoreReply: Decodable, Sendable {
    struct Result: Decodable, Sendable {
        var transactionId: String?
        var originalTransactionId: String?
        var productId: String?
        var status: String
        var code: String?
    }

    var results: [Result]
    var entitlements: [EntitlementReply]
}

extension ServerFixture {
    /// The player's entitlements through the player API.
    func entitlements(_ player: String) async throws -> [EntitlementReply] {
        let answer = try await send(.get, "/v1/players/me/entitlements", credential: token(player))
        guard answer.status == 200 else { throw FixtureError("entitlements failed: \(answer)") }
        let list = try answer.decode(EntitlementListReply.self)
        guard list.playerId == player else { throw FixtureError("entitlements of \(list.playerId), not \(player)") }
        return list.entitlements
    }

    /// The player's one entitlement of `entitlementId`, failing when there is not exactly one.
    func entitlement(_ player: String, _ entitlementId: String) async throws -> EntitlementReply {
        let matching = try await entitlements(player).filter { $0.entitlementId == entitlementId }
        guard matching.count == 1, let entitlement = matching.first else {
            throw FixtureError("\(player) has \(matching.count) \(entitlementId) entitlements")
        }
        return entitlement
    }

    /// Orders, pays on `device` and reports `product` for `player`: the paid transaction.
    func buy(_ player: String, _ product: String, device: String = "phone") async throws -> PurchaseResult {
        let order = try await order(player, product: product)
        let paid = try await pay(product: product, token: order.appAccountToken, device: device)
        guard let signed = paid.signedTransaction else { throw FixtureError("no transaction: \(paid.outcome)") }
        let reply = try await report(player, signedTransaction: signed).decode(PurchaseReply.self)
        guard ["delivered", "already_delivered"].contains(reply.status) else {
            throw FixtureError("report of \(product) answered \(reply.status) \(reply.reason ?? "")")
        }
        return paid
    }

    /// The payload of a signed transaction the emulator signed (the tests trust it; the
    /// server verified it).
    func decodedTransaction(_ jws: String) throws -> JWSTransactionDecodedPayload {
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw FixtureError("not a compact JWS") }
        return try JSONDecoder().decode(
            JWSTransactionDecodedPayload.self, from: try base64URLDecode(String(segments[1])))
    }

    /// Restores `signedTransactions` as `player`.
    func restore(_ player: String, _ signedTransactions: [String]) async throws -> RestoreReply {
        let answer = try await send(
            .post, "/v1/purchases/restore", credential: token(player),
            json: ["signedTransactions": signedTransactions])
        guard answer.status == 200 else { throw FixtureError("restore failed: \(answer)") }
        return try answer.decode(RestoreReply.self)
    }
}

/// Epoch milliseconds of `date`.
func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1_000).rounded(.down))
}

import Foundation

/// An entitlement as the server's answers carry it (`GET /v1/players/me/entitlements`,
/// `POST /v1/purchases/restore`): dates in epoch milliseconds.
struct EntitlementBody: Decodable, Hashable, Sendable {
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

    /// The latest date accepted: 9999-12-31T23:59:59.999Z in epoch milliseconds, as the server bounds them.
    static let latestMilliseconds: Int64 = 253_402_300_799_999

    /// The entitlement, after checking every field: ids and state not empty, dates from
    /// 1970 to 9999.
    func entitlement() throws(AnswerError) -> PlayerEntitlement {
        for (field, value) in [
            ("entitlementId", entitlementId), ("productId", productId), ("state", state), ("ownership", ownership),
            ("transactionId", transactionId), ("originalTransactionId", originalTransactionId),
        ] where value.isEmpty {
            throw AnswerError(field: field)
        }
        return PlayerEntitlement(
            entitlementId: entitlementId, productId: productId, state: PlayerEntitlement.State(rawValue: state),
            entitled: entitled, since: try Self.date(since, field: "since"),
            until: try until.map { milliseconds throws(AnswerError) in try Self.date(milliseconds, field: "until") },
            autoRenew: autoRenew, autoRenewProductId: autoRenewProductId, ownership: ownership,
            transactionId: transactionId, originalTransactionId: originalTransactionId, environment: environment)
    }

    private static func date(_ milliseconds: Int64, field: String) throws(AnswerError) -> Date {
        guard (0...latestMilliseconds).contains(milliseconds) else { throw AnswerError(field: field) }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
    }
}

/// `GET /v1/players/me/entitlements`.
struct EntitlementsAnswer: Decodable, Hashable, Sendable {
    var playerId: String
    var entitlements: [EntitlementBody]
}

/// A server answer decoded, but with a field out of bounds: read as unreadable.
struct AnswerError: Error, Hashable, Sendable {
    /// The first field out of bounds.
    var field: String
}

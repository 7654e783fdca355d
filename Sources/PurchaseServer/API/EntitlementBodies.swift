import Foundation
import Ledger

/// One entitlement as the API shows it (`GET /v1/players/me/entitlements`, the admin API,
/// the restore answer). Dates are epoch milliseconds.
struct EntitlementBody: Codable, Hashable, Sendable {
    var entitlementId: String
    var productId: String
    /// The stored state, except that a stored entitling state past ``until`` is `expired`.
    var state: String
    /// Whether the player is entitled at the answer's `asOf`.
    var entitled: Bool
    var since: Int64
    var until: Int64?
    var autoRenew: Bool?
    var autoRenewProductId: String?
    var ownership: String
    var transactionId: String
    var originalTransactionId: String
    var environment: String

    init(_ entitlement: Entitlement, at now: Date) {
        entitlementId = entitlement.entitlementId
        productId = entitlement.productId
        entitled = entitlement.isEntitled(at: now)
        state =
            entitlement.state.entitles && !entitled ? EntitlementState.expired.rawValue : entitlement.state.rawValue
        since = entitlement.since.apiMilliseconds
        until = entitlement.until?.apiMilliseconds
        autoRenew = entitlement.autoRenew
        autoRenewProductId = entitlement.autoRenewProductId
        ownership = entitlement.ownership.rawValue
        transactionId = entitlement.transactionId
        originalTransactionId = entitlement.originalTransactionId
        environment = entitlement.environment.rawValue
    }

    private enum CodingKeys: String, CodingKey {
        case entitlementId, productId, state, entitled, since, until, autoRenew, autoRenewProductId, ownership
        case transactionId, originalTransactionId, environment
    }

    /// Encodes every key; `until`, `autoRenew` and `autoRenewProductId` as `null` when absent.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entitlementId, forKey: .entitlementId)
        try container.encode(productId, forKey: .productId)
        try container.encode(state, forKey: .state)
        try container.encode(entitled, forKey: .entitled)
        try container.encode(since, forKey: .since)
        try container.encode(until, forKey: .until)
        try container.encode(autoRenew, forKey: .autoRenew)
        try container.encode(autoRenewProductId, forKey: .autoRenewProductId)
        try container.encode(ownership, forKey: .ownership)
        try container.encode(transactionId, forKey: .transactionId)
        try container.encode(originalTransactionId, forKey: .originalTransactionId)
        try container.encode(environment, forKey: .environment)
    }
}

/// A player's entitlements at `asOf` (epoch milliseconds).
struct EntitlementList: Codable, Hashable, Sendable {
    var playerId: String
    var asOf: Int64
    var entitlements: [EntitlementBody]

    init(playerId: String, entitlements: [Entitlement], at now: Date) {
        self.playerId = playerId
        asOf = now.apiMilliseconds
        self.entitlements = entitlements.map { EntitlementBody($0, at: now) }
    }
}

/// The body of `POST /v1/purchases/restore`: the device's current transactions, signed
/// (StoreKit 2) or named in the app receipt (StoreKit 1), and its Google Play purchases.
struct RestoreRequest: Codable, Hashable, Sendable {
    /// Signed transactions (StoreKit 2's `jwsRepresentation`), 1 to ``maximumCount``.
    var signedTransactions: [String]?
    /// The app receipt, base64, that holds ``transactionIds``.
    var receipt: String?
    /// StoreKit 1's restored transactions (`transactionIdentifier`), 1 to ``maximumCount``.
    var transactionIds: [String]?
    /// Google Play purchases (`queryPurchasesAsync`), 1 to ``maximumCount``, each as a
    /// purchase report names it: proofs of nothing, each is read from Google.
    var googlePlay: [GooglePlayReport]?

    /// The most transactions one restore may report of each kind.
    static let maximumCount = 100

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case signedTransactions, receipt, transactionIds, googlePlay
    }

    /// Decodes the body; a field sent as `null` is refused as the wrong type rather than read
    /// as absent (`{"googlePlay": null, "receipt": …}` is no request the API describes).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        for key in CodingKeys.allCases where container.contains(key) {
            guard try !container.decodeNil(forKey: key) else {
                throw DecodingError.valueNotFound(
                    Any.self,
                    .init(codingPath: [key], debugDescription: "\(key.stringValue) is null; leave it out instead"))
            }
        }
        signedTransactions = try container.decodeIfPresent([String].self, forKey: .signedTransactions)
        receipt = try container.decodeIfPresent(String.self, forKey: .receipt)
        transactionIds = try container.decodeIfPresent([String].self, forKey: .transactionIds)
        googlePlay = try container.decodeIfPresent([GooglePlayReport].self, forKey: .googlePlay)
    }

    /// One transaction the device reports.
    enum Item: Hashable, Sendable {
        case signed(String)
        case inReceipt(receipt: String, transactionId: String)
        case googlePlay(GooglePlayReport)
    }

    /// The reported transactions, in order: Apple's, then Google Play's.
    ///
    /// - Throws: ``ServerError`` `400` unless the body holds 1 to ``maximumCount`` signed
    ///   transactions shaped as compact JWS, or a non-empty receipt with 1 to
    ///   ``maximumCount`` transaction ids (`invalid_identifier` for one the identifier rule
    ///   refuses), and not both; or, alone or beside either, 1 to ``maximumCount`` Google
    ///   Play purchases whose fields the identifier rule accepts.
    func items() throws -> [Item] {
        guard let googlePlay else { return try appleItems() }
        guard (1...Self.maximumCount).contains(googlePlay.count) else {
            throw ServerError.invalidRequest("googlePlay must hold 1 to \(Self.maximumCount) items")
        }
        for (index, report) in googlePlay.enumerated() { try report.checkFields(at: "googlePlay[\(index)]") }
        let apple = signedTransactions == nil && receipt == nil && transactionIds == nil ? [] : try appleItems()
        return apple + googlePlay.map(Item.googlePlay)
    }

    /// Apple's reported transactions, in order (see ``items()``).
    private func appleItems() throws -> [Item] {
        let range = 1...Self.maximumCount
        switch (signedTransactions, receipt, transactionIds) {
        case (let signed?, nil, nil):
            guard range.contains(signed.count) else {
                throw ServerError.invalidRequest("signedTransactions must hold 1 to \(Self.maximumCount) items")
            }
            for (index, item) in signed.enumerated() where !CompactJWS.isShaped(item) {
                throw ServerError.invalidRequest(
                    "signedTransactions[\(index)] is not a compact JWS (three base64url segments joined by dots)")
            }
            return signed.map(Item.signed)
        case (nil, let receipt?, let ids?):
            guard !receipt.isEmpty else { throw ServerError.invalidRequest("receipt is empty") }
            guard range.contains(ids.count) else {
                throw ServerError.invalidRequest("transactionIds must hold 1 to \(Self.maximumCount) items")
            }
            for id in ids { try RequestField.identifier(id, .transactionId) }
            return ids.map { Item.inReceipt(receipt: receipt, transactionId: $0) }
        default:
            throw ServerError.invalidRequest(
                "send signedTransactions, or receipt with transactionIds, or googlePlay")
        }
    }
}

/// What a restore did with one reported transaction.
struct RestoreResult: Codable, Hashable, Sendable {
    /// The outcome of one transaction.
    enum Status: String, Codable, Hashable, Sendable {
        /// Delivered now to the restoring player.
        case restored
        /// The restoring player holds it already.
        case alreadyOwned = "already_owned"
        /// Moved to the restoring player (`transfer_to_latest`), with an audited history event.
        case transferred
        /// Another player holds it and keeps it (`keep_with_first`).
        case keptByOtherPlayer = "kept_by_other_player"
        /// Another player holds it and the policy refuses restores (`refuse`).
        case refused
        /// A consumable: never granted again.
        case notRestorable = "not_restorable"
        /// Verification or delivery refused it (``RestoreResult/code``).
        case rejected
    }

    var transactionId: String?
    var originalTransactionId: String?
    var productId: String?
    var status: Status
    /// A stable code for `refused`, `not_restorable` and `rejected`.
    var code: String?
    /// A sentence for people, with ``code``.
    var message: String?
}

/// The answer of `POST /v1/purchases/restore`: one result per reported transaction, in
/// order, and the player's entitlements afterwards.
struct RestoreAnswer: Codable, Hashable, Sendable {
    var results: [RestoreResult]
    var entitlements: [EntitlementBody]
}

extension Date {
    /// Epoch milliseconds, rounded down.
    var apiMilliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1_000).rounded(.down))
    }
}

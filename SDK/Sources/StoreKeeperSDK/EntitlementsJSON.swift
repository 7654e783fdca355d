import Foundation
import PurchaseSDK

/// The player's entitlements as the ABI tells them (`entitlements`, and inside `restore`).
struct EntitlementsJSON: Encodable, Sendable {
    /// The player they belong to; `null` when nobody is signed in.
    var playerId: String?
    /// Each entitlement as the server answered it, as at now.
    var entitlements: [PlayerEntitlement]
    /// The ids that entitle now.
    var entitledIds: [String]
    /// Whether this is the cache (the server could not answer, or `refresh` was false).
    var isCached: Bool
    var fetchedAt: Date?
    /// Why the server could not answer, when it could not.
    var refreshFailure: String?

    init(_ snapshot: EntitlementSnapshot) {
        playerId = snapshot.playerId
        entitlements = snapshot.entitlements
        entitledIds = snapshot.entitledIds.sorted()
        isCached = snapshot.isCached
        fetchedAt = snapshot.fetchedAt
        refreshFailure = snapshot.refreshFailure
    }
}

/// What `restore` answers.
struct RestoreJSON: Encodable, Sendable {
    /// One entry per transaction of the Apple account.
    struct Result: Encodable, Sendable {
        var transactionId: String
        var originalTransactionId: String?
        var productId: String
        /// `restored`, `already_owned`, `transferred`, `kept_by_other_player`, `refused`,
        /// `not_restorable` or `rejected`.
        var status: String
        var code: String?
        var message: String?
        var finishedByRestore: Bool
    }

    var results: [Result]
    var entitlements: EntitlementsJSON

    init(_ outcome: RestoreOutcome) {
        results = outcome.results.map {
            Result(
                transactionId: $0.transactionId, originalTransactionId: $0.originalTransactionId,
                productId: $0.productId, status: $0.status.rawValue, code: $0.code, message: $0.message,
                finishedByRestore: $0.finishedByRestore)
        }
        entitlements = EntitlementsJSON(outcome.entitlements)
    }
}

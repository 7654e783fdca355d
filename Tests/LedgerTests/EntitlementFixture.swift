import AppStoreModel
import Foundation
import Ledger

/// Entitlement test data: a VIP chain, season passes, a level pack.
enum EntitlementFixture {
    /// The chain's first purchase.
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let day: TimeInterval = 86_400
    static let month: TimeInterval = 30 * day

    /// The date `days` after ``start``.
    static func at(days: Double) -> Date {
        start.addingTimeInterval(days * day)
    }

    /// The `period`-th transaction (0: the first purchase) of the auto-renewable chain
    /// `originalTransactionId`, signed by Apple at its purchase date unless told otherwise.
    static func renewal(
        _ originalTransactionId: String,
        period: Int,
        player: String = "alice",
        product: String = "vip.monthly",
        signedAt: Date? = nil
    ) -> Delivery {
        let purchaseDate = start.addingTimeInterval(Double(period) * month)
        return Delivery(
            store: .appStore,
            transactionId: period == 0 ? originalTransactionId : "\(originalTransactionId)-\(period)",
            originalTransactionId: originalTransactionId,
            playerId: player,
            productId: product,
            environment: .sandbox,
            source: .notification,
            grants: [:],
            purchaseDate: purchaseDate,
            entitlement: EntitlementGrant(
                entitlementId: "vip",
                productType: ProductKind.autoRenewable,
                state: .active,
                since: start,
                until: purchaseDate.addingTimeInterval(month),
                autoRenew: true,
                autoRenewProductId: product,
                ownership: .purchased,
                signedAt: signedAt ?? purchaseDate,
                reason: period == 0 ? "SUBSCRIBED" : "DID_RENEW"
            )
        )
    }

    /// A 90-day season pass bought by `player` on `purchaseDate`.
    static func seasonPass(_ transactionId: String, player: String = "alice", purchaseDate: Date) -> Delivery {
        Delivery(
            store: .appStore,
            transactionId: transactionId,
            originalTransactionId: transactionId,
            playerId: player,
            productId: "seasonpass",
            environment: .sandbox,
            source: .clientSignedTransaction,
            grants: [:],
            purchaseDate: purchaseDate,
            entitlement: EntitlementGrant(
                entitlementId: "seasonpass",
                productType: ProductKind.nonRenewing,
                state: .active,
                since: purchaseDate,
                until: nil,
                stackSeconds: 90 * 86_400,
                ownership: .purchased,
                signedAt: purchaseDate
            )
        )
    }

    /// A level pack (non-consumable) bought by `player`.
    static func levelPack(_ transactionId: String, player: String = "alice") -> Delivery {
        Delivery(
            store: .appStore,
            transactionId: transactionId,
            originalTransactionId: transactionId,
            playerId: player,
            productId: "levelpack1",
            environment: .sandbox,
            source: .clientSignedTransaction,
            grants: [:],
            purchaseDate: start,
            entitlement: EntitlementGrant(
                entitlementId: "levelpack1",
                productType: ProductKind.nonConsumable,
                state: .active,
                since: start,
                until: nil,
                ownership: .purchased,
                signedAt: start
            )
        )
    }
}

extension LedgerStore {
    /// The player's entitlement change events.
    func entitlementEvents(playerId: String) async throws -> [HistoryEvent] {
        try await timeline(playerId: playerId).filter {
            $0.type == .entitlementChanged || $0.type == .entitlementTransferred
        }
    }

    /// The entitlement message enqueued under `key`.
    func entitlementMessage(key: String) async throws -> EntitlementMessage? {
        try await outboxMessage(idempotencyKey: key).map { try EntitlementMessage.decode($0.payload) }
    }
}

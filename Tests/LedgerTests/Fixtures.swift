import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// Test data.
enum Fixture {
    /// A purchase date with milliseconds, to check the ledger keeps them.
    static let purchaseDate = Date(timeIntervalSince1970: 1_700_000_000.123)

    /// A new order for `player`.
    static func order(player: String = "player-1", product: String = "coins100") -> Order {
        let now = Date()
        return Order(
            orderId: UUID().uuidString.lowercased(),
            playerId: player,
            productId: product,
            appAccountToken: UUID().uuidString.lowercased(),
            createdAt: now,
            expiresAt: now.addingTimeInterval(3600)
        )
    }

    /// A new transaction id, Apple-style (digits).
    static func transactionId() -> String {
        String(UInt64.random(in: 100_000_000_000_000...999_999_999_999_999))
    }

    /// A delivery of `grants` to `player`.
    static func delivery(
        transactionId: String = transactionId(),
        player: String = "player-1",
        orderId: String? = nil,
        product: String = "coins100",
        grants: Grants = ["coins": 100],
        source: DeliverySource = .clientSignedTransaction,
        flags: Set<String> = [],
        store: Store = .appStore
    ) -> Delivery {
        Delivery(
            store: store,
            transactionId: transactionId,
            originalTransactionId: transactionId,
            playerId: player,
            orderId: orderId,
            productId: product,
            environment: .sandbox,
            source: source,
            flags: flags,
            grants: grants,
            purchaseDate: purchaseDate
        )
    }
}

extension StoreKind: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

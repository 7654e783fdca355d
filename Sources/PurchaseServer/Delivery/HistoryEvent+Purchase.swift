import Foundation
import Ledger

extension HistoryEvent {
    /// An event about a delivered purchase, now: on its transaction, its order and its
    /// player's timeline.
    init(_ type: HistoryEventType, about purchase: Purchase, detail: [String: String]) {
        self.init(
            type: type, playerId: purchase.playerId, orderId: purchase.orderId, transactionId: purchase.transactionId,
            store: purchase.store, detail: detail, createdAt: Date())
    }
}

import Foundation

/// The writes of more than one statement, each written once as a ``LedgerOperation`` that
/// both stores run in one transaction. What happens exactly once is decided inside the
/// database: by uniqueness constraints (`INSERT … ON CONFLICT DO NOTHING RETURNING`) and
/// conditional updates that return a row only when they changed it.
enum LedgerWrites {
    /// Records an order (unless its id or token is taken) and its
    /// ``HistoryEventType/orderCreated`` event.
    static func createOrder(_ order: Order) -> LedgerOperation<Order> {
        LedgerOperation.first(LedgerSQL.insertOrder(order), Order.init(row:)).then { inserted in
            guard let inserted else { throw LedgerError.duplicateOrder(orderId: order.orderId) }
            return LedgerOperation.execute(try LedgerSQL.insertEvent(LedgerRules.orderCreatedEvent(order)))
                .map { inserted }
        }
    }

    /// Records a new notification and its ``HistoryEventType/notificationReceived`` event
    /// (with Apple's signed date and the revoked share it carries, if any); `false` (nothing
    /// written) when its UUID is known (Apple's retries).
    static func recordNotification(
        _ notification: NotificationRecord,
        signedDate: Date?,
        revokedShare: Int?
    ) -> LedgerOperation<Bool> {
        LedgerOperation.first(LedgerSQL.insertNotification(notification)) { _ in () }.then { recorded in
            guard recorded != nil else { return .done(false) }
            return LedgerOperation.execute(
                try LedgerSQL.insertNotificationEvent(notification, signedDate: signedDate, revokedShare: revokedShare)
            )
            .map { true }
        }
    }

    /// Appends the device's purchase-flow events, one ``HistoryEventType/clientEvent`` each.
    static func appendClientEvents(
        _ events: [ClientEvent],
        playerId: String,
        receivedAt: Date
    ) -> LedgerOperation<Void> {
        .reduce(events, into: ()) { _, event in
            .execute(
                try LedgerSQL.insertEvent(LedgerRules.clientEvent(event, playerId: playerId, receivedAt: receivedAt)))
        }
    }
}

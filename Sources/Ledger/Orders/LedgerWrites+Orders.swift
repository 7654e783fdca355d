import Foundation

extension LedgerWrites {
    /// Records an order (unless its id or token is taken) and its
    /// ``HistoryEventType/orderCreated`` event.
    static func createOrder(_ order: Order) -> LedgerOperation<Order> {
        LedgerOperation.first(LedgerSQL.insertOrder(order), Order.init(row:)).then { inserted in
            guard let inserted else { throw LedgerError.duplicateOrder(orderId: order.orderId) }
            return LedgerOperation.execute(try LedgerSQL.insertEvent(LedgerRules.orderCreatedEvent(order)))
                .map { inserted }
        }
    }
}

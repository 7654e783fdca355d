import Foundation

extension SQLLedgerStore {
    public func order(id: String) async throws -> Order? {
        try await read(.first(LedgerSQL.order(id: id), Order.init(row:)))
    }

    public func order(appAccountToken: String) async throws -> Order? {
        try await read(.first(LedgerSQL.order(appAccountToken: appAccountToken), Order.init(row:)))
    }

    public func orders(playerId: String) async throws -> [Order] {
        try await read(.rows(LedgerSQL.orders(playerId: playerId), Order.init(row:)))
    }

    public func orders(playerId: String, page: LedgerPageRequest) async throws -> LedgerPage<Order> {
        let rows = try await read(
            .rows(
                LedgerSQL.orders(playerId: playerId, after: page.after, limit: page.limit + 1), Order.init(row:)))
        return page.page(of: rows) { LedgerCursor(createdAt: $0.createdAt, id: $0.orderId) }
    }

    public func createOrder(_ order: Order) async throws -> Order {
        try await write(LedgerWrites.createOrder(LedgerRules.normalized(order)))
    }
}

import Hummingbird

extension ConsoleRoutes {
    /// The support pages and actions (called by ``SupportConsole/addRoutes(to:)``): search,
    /// player (and its grant action), transaction, order, Apple order, the owed queue (and
    /// its deliver and reconcile actions) and the overview. See ``SupportPages``.
    func addSupportPages() {
        let pages = SupportPages(core: core)
        lookup("search", role: .viewer) { try await pages.searchPage($0, $1, $2) }
        page("players/:playerId", role: .viewer) { try await pages.playerPage($0, $1, $2) }
        action("players/:playerId/grants", role: .agent) { try await pages.grantAction($0, $1, $2, $3) }
        page("transactions/:transactionId", role: .viewer) { try await pages.transactionPage($0, $1, $2) }
        page("orders/:orderId", role: .viewer) { try await pages.orderPage($0, $1, $2) }
        page("apple-orders/:appleOrderId", role: .viewer) { try await pages.appleOrderPage($0, $1, $2) }
        page("owed", role: .viewer) { try await pages.owedPage($0, $1, $2) }
        action("owed/reconcile", role: .agent) { try await pages.reconcileAction($0, $1, $2, $3) }
        action("owed/:transactionId/deliver", role: .agent) { try await pages.deliverOwedAction($0, $1, $2, $3) }
        page("overview", role: .viewer) { try await pages.overviewPage($0, $1, $2) }
    }
}

import Ledger

extension LedgerStore {
    /// The purchase recorded for `transactionId` in whichever store's namespace holds it
    /// (App Store ids are digits, Google Play's `GPA.…` order ids or purchase tokens; no id
    /// is in two), for lookups that are given an id without its store.
    func purchase(inAnyStore transactionId: String) async throws -> Purchase? {
        for store in Store.allCases {
            if let purchase = try await purchase(store: store, transactionId: transactionId) { return purchase }
        }
        return nil
    }
}

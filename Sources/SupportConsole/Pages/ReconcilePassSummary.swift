import Foundation
import PurchaseServer

/// What a reconciler pass found, carried from ``SupportPages/reconcileAction(_:_:_:_:)``
/// to the owed page in the redirect's query (`read`, `missed`, `handled`, `subscriptions`).
struct ReconcilePassSummary: Sendable, Hashable {
    /// Notifications read from Apple's history.
    var read: Int
    /// Of them, the ones the server had missed (or not finished), handled now.
    var missed: Int
    /// Of them, the ones already handled.
    var handled: Int
    /// Lapsed subscriptions checked with Apple.
    var subscriptions: Int

    /// The summary of a pass's report.
    init(_ report: Reconciler.Report) {
        read = report.fetched
        missed = report.processed
        handled = report.duplicates
        subscriptions = report.subscriptionsChecked
    }

    /// The summary in a query (`query` gives a parameter's value), or `nil` when any count
    /// is missing or not a count.
    init?(query: (Substring) -> Substring?) {
        func count(_ key: Substring) -> Int? {
            query(key).flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
        }
        guard let read = count("read"), let missed = count("missed"), let handled = count("handled"),
            let subscriptions = count("subscriptions")
        else { return nil }
        self.read = read
        self.missed = missed
        self.handled = handled
        self.subscriptions = subscriptions
    }

    /// The owed page's path with this summary in its query.
    var owedPath: String {
        "/console/owed?read=\(read)&missed=\(missed)&handled=\(handled)&subscriptions=\(subscriptions)"
    }

    /// The sentence the owed page shows: what the pass read and did, and how many charges
    /// are owed now.
    func sentence(owedNow: Int, _ pages: SupportPages, _ caller: ConsoleCaller) -> String {
        pages.text(
            "reconcile_result", caller,
            [
                "read": ConsoleFormat.count(read), "missed": ConsoleFormat.count(missed),
                "handled": ConsoleFormat.count(handled), "subscriptions": ConsoleFormat.count(subscriptions),
                "owed": ConsoleFormat.count(owedNow),
            ])
    }
}

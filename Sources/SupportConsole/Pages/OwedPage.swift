import Foundation
import Hummingbird
import Ledger

extension SupportPages {
    /// The most rows each table of the owed page lists.
    static var owedLimit: Int { 200 }

    /// `GET /console/owed`: transactions Apple charged that no player received, older than
    /// the configured age (each with the deliver form for agents and admins), players with
    /// refund signals, sandbox purchases a production deployment accepted, and the button
    /// that runs a reconciler pass now.
    func owedPage(_ request: Request, _ context: some RequestContext, _ caller: ConsoleCaller) async throws
        -> ConsolePage
    {
        let learnedBefore = Date().addingTimeInterval(-settings.owedAfterSeconds)
        let owed = try await store.owedTransactions(learnedBefore: learnedBefore, limit: Self.owedLimit)
        let signals = try await store.refundSignals(minimumRefunds: 2, limit: Self.owedLimit)
        let sandbox = try await store.purchases(flagged: PurchaseFlag.sandboxInProduction, limit: Self.owedLimit)
        try await caller.audit(action: "view_owed", detail: ["owed": String(owed.count)])
        return ConsolePage(
            template: "owed", titleKey: "title_owed",
            values: [
                "owed": owed.map { values(of: $0, caller) }, "hasOwed": !owed.isEmpty,
                "owedAfter": LatencyStatistics.format(settings.owedAfterSeconds),
                "signals": signals.map { signal -> [String: any Sendable] in
                    [
                        "playerId": signal.playerId, "playerHref": ConsoleLinks.player(signal.playerId),
                        "negative": Self.grants(signal.negativeBalances),
                        "hasNegative": !signal.negativeBalances.isEmpty,
                        "refunds": String(signal.refundedPurchases), "reversals": String(signal.reversals),
                    ]
                },
                "hasSignals": !signals.isEmpty,
                "sandbox": sandbox.map { values(of: $0, caller) }, "hasSandbox": !sandbox.isEmpty,
                "isProduction": server.configuration.deploymentEnvironment == .production,
            ])
    }

    /// One owed transaction.
    private func values(of owed: OwedTransaction, _ caller: ConsoleCaller) -> [String: any Sendable] {
        var values: [String: any Sendable] = [
            "transactionId": owed.transactionId, "transactionHref": ConsoleLinks.transaction(owed.transactionId),
            "deliverHref": ConsoleLinks.deliver(owed.transactionId), "productId": owed.productId ?? "",
            "firstSeenAt": ConsoleFormat.date(owed.firstSeenAt), "lastSeenAt": ConsoleFormat.date(owed.lastSeenAt),
            "attempts": String(owed.attempts),
        ]
        if let reason = owed.reason { values["reason"] = label("owed_reason_", reason, caller) }
        if let source = owed.source { values["source"] = label("source_", source, caller) }
        return values
    }
}

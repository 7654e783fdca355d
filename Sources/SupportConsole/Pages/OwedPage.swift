import Foundation
import Hummingbird
import Ledger

extension SupportPages {
    /// The most rows each table of the owed page lists.
    static var owedLimit: Int { 200 }

    /// `GET /console/owed`: transactions a store charged (Apple, Google Play) that no player
    /// received, older than
    /// the configured age (each with what the store charged, the orders that may be whose it
    /// is with a deliver button each, and the deliver form for any player, for agents and
    /// admins), players with refund signals, sandbox purchases a production deployment
    /// accepted, and the button that runs a reconciler pass now; after a pass
    /// (``reconcileAction(_:_:_:_:)``'s query), what it found.
    func owedPage(_ request: Request, _ context: some RequestContext, _ caller: ConsoleCaller) async throws
        -> ConsolePage
    {
        let learnedBefore = Date().addingTimeInterval(-settings.owedAfterSeconds)
        let owed = try await store.owedTransactions(learnedBefore: learnedBefore, limit: Self.owedLimit)
        var rows: [[String: any Sendable]] = []
        for transaction in owed {
            let found = try await candidates(for: transaction)
            rows.append(self.values(of: transaction, candidates: found, caller))
        }
        let signals = try await store.refundSignals(minimumRefunds: 2, limit: Self.owedLimit)
        let sandbox = try await store.purchases(flagged: PurchaseFlag.sandboxInProduction, limit: Self.owedLimit)
        try await caller.audit(action: "view_owed", detail: ["owed": String(owed.count)])
        var values: [String: any Sendable] = [
            "owed": rows, "hasOwed": !owed.isEmpty, "listedAfter": listedAfter(caller),
            "signals": signals.map { signal -> [String: any Sendable] in
                [
                    "playerId": signal.playerId, "playerHref": ConsoleLinks.player(signal.playerId),
                    "negative": Self.grants(signal.negativeBalances),
                    "hasNegative": !signal.negativeBalances.isEmpty,
                    "refunds": String(signal.refundedPurchases), "reversals": String(signal.reversals),
                ]
            },
            "hasSignals": !signals.isEmpty,
            "sandbox": sandbox.map { self.values(of: $0, caller) }, "hasSandbox": !sandbox.isEmpty,
            "isProduction": server.configuration.deploymentEnvironment == .production,
        ]
        if let pass = ReconcilePassSummary(query: { request.uri.queryParameters[$0] }) {
            values["reconcileResult"] = pass.sentence(owedNow: owed.count, self, caller)
        }
        return ConsolePage(template: "owed", titleKey: "title_owed", values: values)
    }

    /// When a charge joins the queue, in plain words.
    private func listedAfter(_ caller: ConsoleCaller) -> String {
        settings.owedAfterSeconds < 1
            ? text("owed_listed_at_once", caller)
            : text("owed_listed_after", caller, ["span": span(settings.owedAfterSeconds, caller)])
    }

    /// How the server learned of an owed charge, in the words of its store.
    private static func introKey(of owed: OwedTransaction) -> String {
        if owed.source == "reconciler" { return "owed_intro_reconciler" }
        return owed.store == .googlePlay ? "owed_intro_play_notification" : "owed_intro_notification"
    }

    /// One owed transaction with its candidate owners.
    private func values(of owed: OwedTransaction, candidates: [Order], _ caller: ConsoleCaller)
        -> [String: any Sendable]
    {
        let unknown = text("owed_unknown", caller)
        var values: [String: any Sendable] = [
            "transactionId": owed.transactionId, "transactionHref": ConsoleLinks.transaction(owed.transactionId),
            "deliverHref": ConsoleLinks.deliver(owed.transactionId), "productId": owed.productId ?? unknown,
            "firstSeenAt": ConsoleFormat.date(owed.firstSeenAt), "lastSeenAt": ConsoleFormat.date(owed.lastSeenAt),
            "attempts": String(owed.attempts),
            "price": owed.price.flatMap { price in
                owed.currency.map { ConsoleMoney(milliunits: price, currency: $0).formatted }
            } ?? unknown,
            "purchasedAt": owed.purchaseDate.map { ConsoleFormat.date($0) } ?? unknown,
            "intro": text(Self.introKey(of: owed), caller),
            "candidates": candidates.map { self.values(of: $0, candidateFor: owed, caller) },
            "hasCandidates": !candidates.isEmpty,
            "candidatesEmpty": text("candidates_empty", caller, ["span": span(Self.candidateWindow, caller)]),
        ]
        values["store"] = owed.store.rawValue
        values["storeLabel"] = label("store_", owed.store.rawValue, caller)
        values["isApple"] = owed.store == .appStore
        if owed.store != .appStore {
            // Support delivers through Apple's signed data; a Google Play charge is
            // delivered by the player's report (its purchase token), which the row says.
            values["canAct"] = false
        }
        if let reason = owed.reason { values["reason"] = label("owed_reason_", reason, caller) }
        if let token = owed.appAccountToken { values["appAccountToken"] = token }
        return values
    }
}

import Foundation
import Ledger

extension SupportPages {
    /// How long before an owed charge's purchase an open order for the same product counts
    /// as a candidate owner: 24 hours (a player who ordered, paid later, and whose app never
    /// reported it; see docs/console.md, "The owed queue").
    static var candidateWindow: TimeInterval { 24 * 3600 }
    /// The most candidate orders listed per owed charge.
    static var candidateLimit: Int { 5 }

    /// The orders that may be whose `owed` is (``SupportReads/ownerCandidates``): within
    /// ``candidateWindow`` before its purchase date (before the server first learned of it
    /// when the records do not say when Apple charged), the order carrying its app account
    /// token first. None without a product.
    func candidates(for owed: OwedTransaction) async throws -> [Order] {
        guard let productId = owed.productId else { return [] }
        let charged = owed.purchaseDate ?? owed.firstSeenAt
        return try await store.ownerCandidates(
            productId: productId, appAccountToken: owed.appAccountToken,
            createdFrom: charged.addingTimeInterval(-Self.candidateWindow), createdTo: charged,
            limit: Self.candidateLimit)
    }

    /// One candidate of `owed`: the order, its player (linked), when it was created, how long
    /// before the charge, whether it carries the charge's token, and where its deliver
    /// button posts.
    func values(of order: Order, candidateFor owed: OwedTransaction, _ caller: ConsoleCaller)
        -> [String: any Sendable]
    {
        let charged = owed.purchaseDate ?? owed.firstSeenAt
        let matchesToken = owed.appAccountToken == order.appAccountToken
        var values: [String: any Sendable] = [
            "orderId": order.orderId, "orderHref": ConsoleLinks.order(order.orderId),
            "playerId": order.playerId, "playerHref": ConsoleLinks.player(order.playerId),
            "createdAt": ConsoleFormat.date(order.createdAt), "matchesToken": matchesToken,
            "deliverHref": ConsoleLinks.deliver(owed.transactionId), "transactionId": owed.transactionId,
            "deliverLabel": text("candidate_deliver", caller, ["player": order.playerId]),
        ]
        if !matchesToken {
            values["before"] = text(
                "candidate_before", caller, ["span": span(charged.timeIntervalSince(order.createdAt), caller)])
        }
        return values
    }

    /// A span of time in plain words, rounded down: `45 seconds`, `12 minutes`, `3 hours`.
    func span(_ seconds: TimeInterval, _ caller: ConsoleCaller) -> String {
        let whole = Int(max(0, seconds.isFinite ? min(seconds, 1e9) : 0))
        if whole < 60 { return text("span_seconds", caller, ["n": String(whole)]) }
        if whole < 3600 { return text("span_minutes", caller, ["n": String(whole / 60)]) }
        return text("span_hours", caller, ["n": String(whole / 3600)])
    }
}

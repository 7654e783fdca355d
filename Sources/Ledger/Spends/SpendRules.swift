import Foundation

/// What a spend may be, and what it writes besides the debits.
enum SpendRules {
    /// The most items one spend debits.
    static let maximumItems = 32
    /// The most one spend takes of an item.
    static let maximumAmount: Int64 = 1_000_000_000
    /// The longest reason, in characters.
    static let maximumReasonLength = 1_024

    /// Checks a request before anything is written.
    ///
    /// - Throws: ``LedgerError/invalidSpend(_:)`` naming the first rule it breaks.
    static func validate(_ request: SpendRequest) throws(LedgerError) {
        if let problem = IdentifierRule.problem(
            with: request.idempotencyKey, maximumLength: Spend.maximumIdempotencyKeyLength)
        {
            throw .invalidSpend("the idempotency key is not an identifier: \(problem)")
        }
        guard !request.items.isEmpty else { throw .invalidSpend("nothing to spend") }
        guard request.items.count <= maximumItems else {
            throw .invalidSpend("at most \(maximumItems) items per spend")
        }
        for (item, amount) in request.items {
            if let problem = IdentifierRule.problem(with: item, maximumLength: ItemName.maximumLength) {
                throw .invalidSpend("an item name is not an identifier: \(problem)")
            }
            guard (1...maximumAmount).contains(amount) else {
                throw .invalidSpend("\(item): an amount is from 1 to \(maximumAmount)")
            }
        }
        guard !request.reason.isEmpty, request.reason.unicodeScalars.count <= maximumReasonLength else {
            throw .invalidSpend("a reason of 1 to \(maximumReasonLength) characters is required")
        }
    }

    /// Whether `request` asks for the spend recorded under its key (a retry), rather than
    /// a different one reusing the key.
    static func isRetry(of spend: Spend, _ request: SpendRequest) -> Bool {
        spend.items == request.items && spend.reason == request.reason
    }

    /// The history event of a spend.
    static func event(_ spend: Spend) -> HistoryEvent {
        HistoryEvent(
            type: .spend, playerId: spend.playerId,
            detail: [
                "idempotencyKey": spend.idempotencyKey, "items": LedgerJSON.text(spend.items),
                "reason": spend.reason, "actor": spend.actor, "balances": LedgerJSON.text(spend.balances),
            ],
            createdAt: spend.createdAt)
    }
}

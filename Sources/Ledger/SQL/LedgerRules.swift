import Foundation

/// Checks and event details shared by both stores, so they behave identically.
enum LedgerRules {
    /// Grants a delivery may carry: named items, positive amounts.
    static func validateDeliveryGrants(_ grants: Grants) throws {
        for (item, amount) in grants {
            guard !item.isEmpty else { throw LedgerError.invalidGrants("empty item name") }
            guard amount > 0 else { throw LedgerError.invalidGrants("\(item): \(amount) is not a positive amount") }
        }
    }

    /// The largest amount of one item a manual grant may add or take away, so that no
    /// balance can overflow 64 bits in any realistic number of grants.
    static let maximumManualAmount: Int64 = 1_000_000_000_000
    /// The most items one manual grant may name.
    static let maximumManualItems = 100
    /// The longest item name, in characters (Unicode scalars).
    static let maximumItemLength = ItemName.maximumLength

    /// Grants a manual grant may carry: 1 to ``maximumManualItems`` items named by identifiers
    /// (``IdentifierRule``, at most ``maximumItemLength`` characters each), non-zero amounts of
    /// at most ``maximumManualAmount`` either way.
    static func validateManualGrants(_ grants: Grants) throws {
        guard !grants.isEmpty else { throw LedgerError.invalidGrants("nothing to grant") }
        guard grants.count <= maximumManualItems else {
            throw LedgerError.invalidGrants("at most \(maximumManualItems) items per grant")
        }
        for (item, amount) in grants {
            if let problem = IdentifierRule.problem(with: item, maximumLength: maximumItemLength) {
                throw LedgerError.invalidGrants("an item name is not an identifier: \(problem)")
            }
            guard amount != 0 else { throw LedgerError.invalidGrants("\(item): zero amount") }
            guard (-maximumManualAmount...maximumManualAmount).contains(amount) else {
                throw LedgerError.invalidGrants("\(item): an amount is at most \(maximumManualAmount) either way")
            }
        }
    }

    /// A delivery the ledger can record.
    static func validate(_ delivery: Delivery) throws {
        guard !delivery.transactionId.isEmpty else { throw LedgerError.invalidGrants("empty transaction id") }
        try validateDeliveryGrants(delivery.grants)
        if let entitlement = delivery.entitlement {
            guard !entitlement.entitlementId.isEmpty else { throw LedgerError.invalidGrants("empty entitlement id") }
            if let stackSeconds = entitlement.stackSeconds, stackSeconds <= 0 {
                throw LedgerError.invalidGrants("entitlement period \(stackSeconds) s is not positive")
            }
        }
    }

    /// Grants in a fixed item order, by the names' UTF-8 bytes (the order of PostgreSQL's
    /// `COLLATE "C"`, which `storekeeper_deliver_by_order` posts in): balances are always
    /// locked in the same order, so concurrent PostgreSQL transactions touching one player
    /// cannot deadlock.
    static func ordered(_ grants: Grants) -> [(item: String, amount: Int64)] {
        grants.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { (item: $0.key, amount: $0.value) }
    }

    /// The order as stored: token lowercased, dates at the ledger's resolution.
    static func normalized(_ order: Order) -> Order {
        var order = order
        order.appAccountToken = order.appAccountToken.lowercased()
        order.createdAt = order.createdAt.ledgerNormalized
        order.expiresAt = order.expiresAt.ledgerNormalized
        return order
    }

    /// The event recording a new order.
    static func orderCreatedEvent(_ order: Order) -> HistoryEvent {
        HistoryEvent(
            type: .orderCreated,
            playerId: order.playerId,
            orderId: order.orderId,
            detail: [
                "productId": order.productId,
                "quantity": String(order.quantity),
                "appAccountToken": order.appAccountToken,
                "expiresAt": String(order.expiresAt.ledgerMilliseconds),
            ],
            createdAt: order.createdAt
        )
    }

    /// The event recording a delivery.
    static func deliveredEvent(_ purchase: Purchase) throws -> HistoryEvent {
        HistoryEvent(
            type: .delivered,
            playerId: purchase.playerId,
            orderId: purchase.orderId,
            transactionId: purchase.transactionId,
            detail: [
                "source": purchase.source.rawValue,
                "productId": purchase.productId,
                "quantity": String(purchase.quantity),
                "environment": purchase.environment.rawValue,
                "grants": LedgerJSON.text(purchase.grants),
                "flags": purchase.flags.sorted().joined(separator: ","),
            ],
            createdAt: purchase.deliveredAt
        )
    }

    /// The event recording a change of a purchase's refunded share: ``HistoryEventType/refunded``
    /// when it grew, ``HistoryEventType/refundReversed`` when it shrank.
    static func refundMovementEvent(
        _ purchase: Purchase,
        previousShare: Int,
        posting: LedgerPosting,
        at: Date
    ) throws -> HistoryEvent {
        let grows = purchase.refundedShare > previousShare
        var detail = [
            "grants": LedgerJSON.text(signedGrants(posting)),
            "refundedShare": String(purchase.refundedShare),
            "previousRefundedShare": String(previousShare),
        ]
        if grows { detail["reason"] = purchase.refundReason }
        if posting.hasNegativeBalance {
            detail["negativeBalances"] = LedgerJSON.text(posting.negativeBalances)
        }
        return HistoryEvent(
            type: grows ? .refunded : .refundReversed,
            playerId: purchase.playerId,
            orderId: purchase.orderId,
            transactionId: purchase.transactionId,
            detail: detail,
            createdAt: at
        )
    }

    /// The audit event of a manual grant.
    static func manualGrantEvent(
        playerId: String,
        posting: LedgerPosting,
        reason: String,
        actor: String,
        via: String?,
        at: Date
    ) throws -> HistoryEvent {
        var detail = ["grants": LedgerJSON.text(signedGrants(posting)), "reason": reason, "actor": actor]
        if let via { detail["via"] = via }
        if posting.hasNegativeBalance {
            detail["negativeBalances"] = LedgerJSON.text(posting.negativeBalances)
        }
        return HistoryEvent(type: .manualGrant, playerId: playerId, detail: detail, createdAt: at)
    }

    /// The history event holding one client event.
    static func clientEvent(_ event: ClientEvent, playerId: String, receivedAt: Date) -> HistoryEvent {
        var detail = event.attributes
        detail["name"] = event.name
        detail["occurredAt"] = String(event.occurredAt.ledgerMilliseconds)
        return HistoryEvent(
            type: .clientEvent,
            playerId: playerId,
            orderId: event.orderId,
            transactionId: event.transactionId,
            detail: detail,
            createdAt: receivedAt
        )
    }

    /// The amounts a posting applied, item → signed amount.
    private static func signedGrants(_ posting: LedgerPosting) -> Grants {
        Dictionary(posting.entries.map { ($0.item, $0.amount) }, uniquingKeysWith: +)
    }
}

import Foundation
import GooglePlayAPI
import Ledger
import Logging
import PlayModel

/// Applies Google Play's word that a purchase was voided, whichever way it came (a
/// `voidedPurchaseNotification` push, or a `VoidedPurchase` that `voidedpurchases.list`
/// gives the reconciler), through the ledger's one refund path, the same as Apple's
/// refunds: the void is recorded as a ``RefundNotice`` and the purchase settled to it
/// (``RefundStore/settleRefundState(store:transactionId:reason:)``: the negative entries,
/// the `refunded` event, the webhook's refund message, a negative balance reported); a
/// full void of the order that backs an entitlement (a non-consumable's) marks it
/// `refunded`.
///
/// A full void refunds all of the purchase. A quantity-based partial refund names how many
/// units that one refund gave back, while the ledger's share is cumulative (the store's
/// latest word, as Apple's `revocationPercentage`): the share is read from Google's
/// purchase, `(quantity − refundableQuantity) / quantity` of ``RefundShare/whole`` (for a
/// first partial refund, `voidedQuantity / quantity`; for later ones the sum so far).
///
/// A void is recorded under an id derived from the order id and the share it sets, so the
/// same word arriving twice (Pub/Sub's redelivery, the notification and the reconciler)
/// is recorded once, and settling again changes nothing.
struct PlayVoidSettler: Sendable {
    let client: GooglePlayDeveloperAPIClient
    let store: any LedgerStore
    let logger: Logger

    /// One voided purchase, as the notification or the list says it.
    struct Void: Sendable, Hashable {
        /// Google's order id of the voided purchase (the ledger's transaction id).
        var orderId: String
        /// The voided purchase's token.
        var purchaseToken: String
        /// Whether it is a quantity-based partial refund.
        var isPartial: Bool
        /// When Google voided it, if said.
        var voidedAt: Date?
    }

    /// What settling a void did.
    enum Outcome: Sendable, Hashable {
        /// The purchase's refunded share was moved, or was there already.
        case settled
        /// The purchase was never delivered here: a full void is recorded (a later delivery
        /// of it is refused); a partial one, whose product is unknown, is not acted on.
        case unknownPurchase
        /// A partial refund whose purchase Google refuses for good, or describes without
        /// usable quantities: logged, not acted on.
        case notActedOn
    }

    /// Records `void` and settles the purchase to it.
    ///
    /// - Throws: ``ServerError`` 400 for an order id or token that is not an identifier;
    ///   503 `play_unavailable` (or `play_application_not_found`) while the Play Developer
    ///   API fails (a partial refund's purchase cannot be read); the ledger's error.
    func settle(_ void: Void) async throws -> Outcome {
        try RequestField.identifier(void.orderId, .transactionId, field: "orderId")
        try RequestField.identifier(void.purchaseToken, .purchaseToken)
        let share: Int
        let signedAt: Date?
        if void.isPartial {
            guard let delivered = try await store.purchase(store: .googlePlay, transactionId: void.orderId) else {
                logger.notice(
                    "Google Play partial refund of an undelivered purchase not acted on",
                    metadata: ["orderId": .string(void.orderId)])
                return .unknownPurchase
            }
            guard let refunded = try await refundedShare(productId: delivered.productId, void: void) else {
                return .notActedOn
            }
            share = refunded
            // The share is Google's state when read: it orders after every earlier word.
            signedAt = Date()
        } else {
            share = RefundShare.whole
            signedAt = void.voidedAt
        }
        let reason = void.isPartial ? Self.partialReason : Self.fullReason
        _ = try await store.recordNotification(
            store: .googlePlay, notificationUUID: "googlePlay.voided.\(void.orderId).\(share)",
            type: Self.notificationType, subtype: reason, transactionId: void.orderId, signedDate: signedAt,
            refund: RefundNotice(kind: .refund, refundedShare: share, reason: reason), receivedAt: Date())
        let settlement = try await store.settleRefundState(
            store: .googlePlay, transactionId: void.orderId, reason: reason)
        if case .unknownTransaction = settlement { return .unknownPurchase }
        if case .reversed(let purchase, let posting) = settlement, posting.hasNegativeBalance {
            logger.notice(
                "refund left a negative balance",
                metadata: ["transactionId": .string(purchase.transactionId), "playerId": .string(purchase.playerId)])
        }
        if !void.isPartial { try await refundEntitlement(void, signedAt: signedAt ?? Date()) }
        return .settled
    }

    /// Marks the purchase token's entitlement `refunded` when the void took back all of the
    /// purchase that backs it now; a void of an earlier order of the chain, or of a share,
    /// leaves it (as Apple's refunds do).
    private func refundEntitlement(_ void: Void, signedAt: Date) async throws {
        guard
            let entitlement = try await store.entitlement(
                store: .googlePlay, originalTransactionId: void.purchaseToken),
            entitlement.transactionId == void.orderId,
            // A subscription's chain is told by its own notification (REVOKED).
            entitlement.productType != .autoRenewable
        else { return }
        // Naming the order lets the ledger drop the update if a later period committed since.
        _ = try await store.updateEntitlement(
            EntitlementUpdate(
                store: .googlePlay, originalTransactionId: void.purchaseToken, transactionId: void.orderId,
                state: .refunded, signedAt: signedAt, reason: Self.fullReason))
    }

    /// The share Google's purchase says is refunded so far, or `nil` (logged) when Google
    /// refuses the token for good or gives no usable quantities.
    private func refundedShare(productId: String, void: Void) async throws -> Int? {
        let purchase: ProductPurchase
        do {
            purchase = try await client.productPurchase(productId: productId, token: void.purchaseToken)
        } catch {
            let refusal = PlayPurchaseVerifier.refusal(error, orderId: void.orderId)
            if refusal.status == .serviceUnavailable {
                throw ServerError(refusal.reason, refusal.message, status: .serviceUnavailable)
            }
            logger.notice(
                "Google Play partial refund not acted on: Google refused the purchase",
                metadata: ["orderId": .string(void.orderId), "reason": .string(refusal.reason)])
            return nil
        }
        guard let share = Self.refundedShare(quantity: purchase.quantity ?? 1, refundable: purchase.refundableQuantity)
        else {
            logger.notice(
                "Google Play partial refund not acted on: no refundableQuantity within 0…quantity",
                metadata: ["orderId": .string(void.orderId)])
            return nil
        }
        return share
    }

    /// The refunded share (milliunits) of a purchase of `quantity` units of which
    /// `refundable` are left: `nil` unless `0 ≤ refundable ≤ quantity` and `quantity > 0`.
    static func refundedShare(quantity: Int, refundable: Int?) -> Int? {
        guard quantity > 0, let refundable, (0...quantity).contains(refundable) else { return nil }
        return (quantity - refundable) * RefundShare.whole / quantity
    }

    /// The type a void is recorded under among the store's notifications.
    static let notificationType = "VOIDED_PURCHASE"
    /// The reason (and subtype) of a full void.
    static let fullReason = "google_play_voided"
    /// The reason (and subtype) of a quantity-based partial refund.
    static let partialReason = "google_play_voided_partial"
}

extension PlayVoidSettler.Void {
    /// The void a push names; `eventTimeMillis` as its time.
    init(_ notification: VoidedPurchaseNotification, eventTimeMillis: String) {
        self.init(
            orderId: notification.orderId, purchaseToken: notification.purchaseToken,
            isPartial: notification.refundType == VoidedPurchaseRefundType.quantityBasedPartialRefund,
            voidedAt: Int64(eventTimeMillis).map { Date(timeIntervalSince1970: Double($0) / 1000) })
    }

    /// The void a listed record names, or `nil` without an order id or a token.
    init?(_ record: VoidedPurchase) {
        guard let orderId = record.orderId, let token = record.purchaseToken else { return nil }
        self.init(
            orderId: orderId, purchaseToken: token, isPartial: record.voidedQuantity != nil,
            voidedAt: record.voidedTimeMillis.flatMap(Int64.init).map { Date(timeIntervalSince1970: Double($0) / 1000) }
        )
    }
}

import Foundation
import PlayModel

/// Why a purchase cannot change as asked; the Publisher API answers Google's
/// `invalidPurchaseState`, the device routes the emulator's `invalid_purchase_state`.
struct PlayPurchaseStateError: Error {
    /// What went wrong, for a person.
    var message: String
}

extension PlayPurchase {
    /// Acknowledges a paid, unconsumed purchase, keeping `developerPayload`; one already
    /// acknowledged stays as it is (a retried acknowledgement is safe).
    mutating func acknowledge(developerPayload: String?) throws(PlayPurchaseStateError) {
        guard purchaseState == PurchaseState.purchased, consumptionState == ConsumptionState.yetToBeConsumed else {
            throw PlayPurchaseStateError(message: "the purchase is \(stateName); only a paid, unconsumed one can")
        }
        guard acknowledgementState == AcknowledgementState.yetToBeAcknowledged else { return }
        acknowledgementState = AcknowledgementState.acknowledged
        self.developerPayload = developerPayload
    }

    /// Consumes a paid, unconsumed purchase, which also acknowledges it.
    mutating func consume() throws(PlayPurchaseStateError) {
        guard purchaseState == PurchaseState.purchased, consumptionState == ConsumptionState.yetToBeConsumed else {
            throw PlayPurchaseStateError(message: "the purchase is \(stateName); only a paid, unconsumed one can")
        }
        consumptionState = ConsumptionState.consumed
        acknowledgementState = AcknowledgementState.acknowledged
    }

    /// The slow payment of a pending purchase arrived: it is purchased (paid) from `now`.
    mutating func complete(now: Date) throws(PlayPurchaseStateError) {
        guard purchaseState == PurchaseState.pending else {
            throw PlayPurchaseStateError(message: "the purchase is \(stateName), not pending")
        }
        purchaseState = PurchaseState.purchased
        paidTime = now
    }

    /// The slow payment of a pending purchase never came: it is canceled (nothing was paid,
    /// so nothing is refunded or voided).
    mutating func cancelPending() throws(PlayPurchaseStateError) {
        guard purchaseState == PurchaseState.pending else {
            throw PlayPurchaseStateError(message: "the purchase is \(stateName), not pending")
        }
        purchaseState = PurchaseState.canceled
    }

    /// A readable name of the state, for messages.
    var stateName: String {
        switch purchaseState {
        case PurchaseState.pending: "pending"
        case PurchaseState.canceled: "canceled"
        default: consumptionState == ConsumptionState.consumed ? "consumed" : "purchased"
        }
    }
}

extension PlayPurchase {
    /// Refunds `quantity` units (all still refundable when `nil`) at `now` and answers the
    /// voided-purchase record. Refunding every unit still refundable voids the whole
    /// purchase (a record without `voidedQuantity`) and, with `revoke`, takes the item away
    /// (`purchaseState` 1); fewer units are a quantity-based partial refund (a record with
    /// `voidedQuantity`) and the purchase stays.
    ///
    /// - Throws: ``PlayPurchaseStateError`` for a purchase that is not paid or has nothing
    ///   left to refund; ``PlayRefundQuantityError`` for `quantity` outside 1…refundable.
    mutating func refund(quantity: Int?, revoke: Bool = true, source: Int, reason: Int, now: Date) throws
        -> PlayVoidedRecord
    {
        let remaining = refundableQuantity
        guard purchaseState == PurchaseState.purchased, remaining > 0 else {
            throw PlayPurchaseStateError(
                message: purchaseState == PurchaseState.purchased
                    ? "the purchase was refunded already" : "the purchase is \(stateName); only a paid one is refunded")
        }
        let units = quantity ?? remaining
        guard (1...remaining).contains(units) else {
            throw PlayRefundQuantityError(message: "quantity must be 1 to \(remaining), not \(units)")
        }
        refundedQuantity += units
        let whole = units == remaining
        if whole, revoke { purchaseState = PurchaseState.canceled }
        return PlayVoidedRecord(
            purchaseToken: purchaseToken, orderId: orderId, purchaseTime: purchaseTime, voidedTime: now,
            recordedTime: now, source: source, reason: reason, partialQuantity: whole ? nil : units)
    }
}

/// A refund of more units than the purchase can still refund, or of none.
struct PlayRefundQuantityError: Error {
    /// What went wrong, for a person.
    var message: String
}

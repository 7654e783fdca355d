import Foundation
import PlayModel

extension PlayEmulator {
    /// Google's three days to acknowledge a purchase, times ``periodScale``.
    public var acknowledgementWindow: TimeInterval { 3 * 86_400 * periodScale }

    /// Applies Google's three-day rule up to ``now``, and moves the subscriptions there
    /// (``settleSubscriptions(_:now:)``): a paid purchase neither acknowledged
    /// nor consumed within ``acknowledgementWindow`` of becoming paid is refunded and
    /// revoked (`purchaseState` 1) and recorded as voided by Google (`voidedSource` 2) for
    /// `voidedReason` 8, unacknowledged purchase, at the moment the window closed.
    ///
    /// Each void publishes its notification in the same change, so it is told exactly once.
    ///
    /// Nothing runs on a timer: every read or change of the state calls this first, under
    /// the state's lock, so the rule is exact at whatever moment anyone looks.
    func settle(_ state: inout PlayState) {
        let now = self.now()
        let window = acknowledgementWindow
        var expired: [PlayVoidedRecord] = []
        for (token, purchase) in state.purchases {
            guard purchase.purchaseState == PurchaseState.purchased,
                purchase.acknowledgementState == AcknowledgementState.yetToBeAcknowledged,
                purchase.consumptionState == ConsumptionState.yetToBeConsumed, purchase.refundableQuantity > 0,
                let paid = purchase.paidTime
            else { continue }
            let deadline = paid.addingTimeInterval(window)
            guard deadline <= now else { continue }
            var voided = purchase
            voided.purchaseState = PurchaseState.canceled
            voided.refundedQuantity = voided.quantity
            state.purchases[token] = voided
            expired.append(
                PlayVoidedRecord(
                    purchaseToken: token, orderId: purchase.orderId, purchaseTime: purchase.purchaseTime,
                    voidedTime: deadline, recordedTime: now, source: VoidedSource.google,
                    reason: VoidedReason.unacknowledgedPurchase, partialQuantity: nil))
        }
        for record in expired.sorted(by: { ($0.voidedTime, $0.orderId) < ($1.voidedTime, $1.orderId) }) {
            recordVoid(record, in: &state)
        }
        settleSubscriptions(&state, now: now)
    }
}

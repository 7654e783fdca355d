import AppStoreModel
import Foundation
import GooglePlayAPI
import Ledger
import Logging
import PlayModel

/// Consumes (a consumable) or acknowledges (anything else) at Google the Play purchases the
/// server delivered: Google refunds and revokes a purchase left unacknowledged for three
/// days. The Play side's counterpart of ``TransactionFinisher``.
///
/// It runs only after the delivery committed, and never undoes or delays it. Each outcome
/// is a history event on the purchase (``HistoryEventType/acknowledgedAtGoogle``,
/// ``HistoryEventType/acknowledgeAtGoogleFailed`` for a failure that may pass,
/// ``HistoryEventType/acknowledgeAtGoogleRefused`` for one that will not). A failure that
/// may pass is tried again by the next report of the purchase and by the reconciler
/// (``settleOwed(now:limit:)``), well within the three days.
struct PlayAcknowledger: Sendable {
    let client: GooglePlayDeveloperAPIClient
    let store: any LedgerStore
    let catalog: ProductCatalog
    let metrics: ServerMetrics
    let logger: Logger

    /// How far back the reconciler looks for purchases not acknowledged: Google's three
    /// days, and a day more for a server that was down.
    static let lookback: TimeInterval = 4 * 86_400

    /// The events that settle a purchase: nothing more is tried.
    static let settling: [HistoryEventType] = [.acknowledgedAtGoogle, .acknowledgeAtGoogleRefused]

    /// Consumes or acknowledges `purchase` unless its history says it is settled.
    ///
    /// - Returns: Whether it is settled now.
    /// - Throws: The ledger's error only; Google's failures are recorded, not thrown.
    @discardableResult
    func settle(_ purchase: Purchase, source: DeliverySource) async throws -> Bool {
        guard purchase.store == .googlePlay else { return true }
        let events = try await store.events(transactionId: purchase.transactionId)
        guard !events.contains(where: { Self.settling.contains($0.type) && $0.store == .googlePlay }) else {
            return true
        }
        let consumes = catalog.product(purchase.productId)?.type == .consumable
        var detail = ["action": consumes ? "consume" : "acknowledge", "source": source.rawValue]
        let token = purchase.originalTransactionId
        do throws(GooglePlayAPIError) {
            do throws(GooglePlayAPIError) {
                if consumes {
                    try await client.consumeProductPurchase(productId: purchase.productId, token: token)
                } else {
                    try await client.acknowledgeProductPurchase(productId: purchase.productId, token: token)
                }
            } catch  where error.reason == "invalidPurchaseState" {
                // Consumed or acknowledged already (by the app, or a pass that raced this one)?
                let current = try await client.productPurchase(productId: purchase.productId, token: token)
                let done =
                    current.consumptionState == ConsumptionState.consumed
                    || (!consumes && current.acknowledgementState == AcknowledgementState.acknowledged)
                guard done else { throw error }
                detail["alreadyDone"] = "true"
            }
        } catch {
            metrics.recordPlayFollowUp(detail["action"] ?? "acknowledge", success: false)
            detail["error"] = error.kind.rawValue
            detail["httpStatus"] = error.httpStatus.map(String.init)
            detail["reason"] = error.reason
            let type: HistoryEventType = error.isRetryable ? .acknowledgeAtGoogleFailed : .acknowledgeAtGoogleRefused
            try await store.appendEvent(HistoryEvent(type, about: purchase, detail: detail))
            logger.warning(
                "Google Play acknowledgement failed",
                metadata: [
                    "transactionId": .string(LoggedIdentifier.text(purchase.transactionId)),
                    "error": .string(error.kind.rawValue),
                    "httpStatus": .string(error.httpStatus.map(String.init) ?? "-"),
                ])
            return false
        }
        metrics.recordPlayFollowUp(detail["action"] ?? "acknowledge", success: true)
        try await store.appendEvent(HistoryEvent(.acknowledgedAtGoogle, about: purchase, detail: detail))
        return true
    }

    /// The reconciler's pass: settles the Play purchases delivered in the last
    /// ``lookback`` that no event settles yet, oldest first, at most `limit`.
    ///
    /// - Returns: How many were looked at, and how many are settled now.
    func settleOwed(now: Date = Date(), limit: Int = 500) async throws -> (checked: Int, settled: Int) {
        let owed = try await store.purchases(
            store: .googlePlay, deliveredSince: now.addingTimeInterval(-Self.lookback), without: Self.settling,
            limit: limit)
        var settled = 0
        for purchase in owed where try await settle(purchase, source: .reconciler) {
            settled += 1
        }
        return (owed.count, settled)
    }
}

import AppStoreAPI
import AppStoreModel
import Foundation
import Ledger
import Logging

/// Finishes at Apple (App Store Server API's Finish Transaction) the transactions the
/// server delivered from an App Store Server Notification or the reconciler, which the app
/// never reported: the customer's device would otherwise hold them unfinished, and the App
/// Store would keep telling the customer the item is already purchased but not delivered.
///
/// It runs after the delivery committed and never undoes or delays it. Each outcome is a
/// history event on the transaction (``HistoryEventType/finishedAtApple`` or
/// ``HistoryEventType/finishAtAppleFailed``). A failure that may pass (transport, 429,
/// 5xx, Apple's retryable codes) throws ``ServerError/appleUnavailable(_:)`` once recorded,
/// so the notification that delivered stays unprocessed: Apple sends it again (it got a
/// 503) and the reconciler reads it again, and the finish is tried again then. A failure
/// that will not pass is recorded and not tried again.
struct TransactionFinisher: Sendable {
    let client: AppStoreServerAPIClient
    let store: any LedgerStore
    let catalog: ProductCatalog
    let metrics: ServerMetrics
    let logger: Logger

    /// The product types finished: those a delivery provides once and that keep the
    /// customer stuck when left unfinished. An auto-renewable subscription's transactions
    /// are left to the app, which sees every renewal and finishes it.
    static let productTypes: Set<ProductType> = [.consumable, .nonConsumable, .nonRenewing]

    /// The delivery sources whose purchases the app never reported.
    static let sources: Set<DeliverySource> = [.notification, .reconciler]

    /// Finishes `purchase` at Apple when the server owes it: `source` (this delivery) and
    /// the purchase's first source are a notification or the reconciler, its product type
    /// is one of ``productTypes``, and no finish (nor a failure that will not pass) is
    /// recorded for it yet.
    ///
    /// - Throws: ``ServerError/appleUnavailable(_:)`` after recording a failure that may
    ///   pass; the ledger's error when the database failed.
    func finishIfOwed(_ purchase: Purchase, deliveredBy source: DeliverySource) async throws {
        guard Self.sources.contains(source), Self.sources.contains(purchase.source),
            let type = catalog.product(purchase.productId)?.type, Self.productTypes.contains(type)
        else { return }
        let settled = try await store.events(transactionId: purchase.transactionId).contains {
            $0.type == .finishedAtApple || ($0.type == .finishAtAppleFailed && $0.detail["retryable"] == "false")
        }
        guard !settled else { return }
        var detail = ["source": source.rawValue, "productType": type.rawValue]
        do {
            try await client.finishTransaction(transactionId: purchase.transactionId)
        } catch {
            metrics.recordAppleFollowUp("finish_transaction", success: false)
            detail.merge(error.historyDetail) { _, apple in apple }
            try await store.appendEvent(HistoryEvent(.finishAtAppleFailed, about: purchase, detail: detail))
            logger.warning(
                "Finish Transaction failed",
                metadata: ["transactionId": .string(purchase.transactionId), "error": .string("\(error)")])
            guard error.isRetryable else { return }
            throw ServerError.appleUnavailable(
                "delivered; Finish Transaction failed (\(error.kind.rawValue)), retried when the notification comes again"
            )
        }
        metrics.recordAppleFollowUp("finish_transaction", success: true)
        try await store.appendEvent(HistoryEvent(.finishedAtApple, about: purchase, detail: detail))
    }
}

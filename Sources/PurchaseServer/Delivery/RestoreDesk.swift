import AppStoreModel
import Foundation
import Ledger

/// Restores what a device's App Store or Google Play account owns to the reporting player
/// (`POST /v1/purchases/restore`): every current transaction the device reports is
/// verified (Apple's signatures; Google's Play Developer API, as a report's purchase), and
/// non-consumables and subscriptions are delivered or re-linked according to the
/// ``RestoreTransferPolicy``. Consumables are never granted again. A Google Play purchase
/// delivered by the restore is then acknowledged at Google, as a report's is.
struct RestoreDesk: Sendable {
    let store: any LedgerStore
    let catalog: ProductCatalog
    let verifier: TransactionVerifier
    let deliverer: PurchaseDeliverer
    let policy: RestoreTransferPolicy
    /// Google Play's side, when the server is configured for it.
    let play: (verifier: PlayPurchaseVerifier, acknowledger: PlayAcknowledger)?

    /// Restores `request`'s transactions to `playerId`, one after the other.
    ///
    /// - Throws: ``ServerError`` `400` for a malformed body (``RestoreRequest/items()``);
    ///   the ledger's error when the database failed (what was done stays done: restoring
    ///   again answers `already_owned`).
    func restore(playerId: String, _ request: RestoreRequest) async throws -> RestoreAnswer {
        var results: [RestoreResult] = []
        for item in try request.items() {
            results.append(try await restore(item, playerId: playerId))
        }
        let entitlements = try await store.entitlements(playerId: playerId)
        let now = Date()
        return RestoreAnswer(results: results, entitlements: entitlements.map { EntitlementBody($0, at: now) })
    }

    private func restore(_ item: RestoreRequest.Item, playerId: String) async throws -> RestoreResult {
        let transaction: VerifiedTransaction
        do throws(DeliveryRefusal) {
            switch item {
            case .signed(let signed):
                transaction = try await verifier.transaction(signedTransaction: signed)
            case .inReceipt(let receipt, let transactionId):
                // A receipt names no order: Apple's token binds a transaction an order paid
                // for to that order's player, as for a purchase reported without its order.
                transaction = try await verifier.bindingFromApple(
                    try await verifier.transaction(receipt: receipt, transactionId: transactionId))
            case .googlePlay(let report):
                // The report proves nothing: Google's answer does.
                guard let play else {
                    throw DeliveryRefusal.rejected(
                        "not_configured", "the server has no Google Play configuration",
                        status: .serviceUnavailable, transactionId: report.orderId)
                }
                transaction = try await play.verifier.transaction(report, catalog: catalog)
            }
        } catch {
            try await deliverer.record(error, playerId: playerId, source: item.source, store: item.store)
            return RestoreResult(
                transactionId: item.transactionId, status: .rejected, code: error.reason, message: error.message)
        }
        return try await restore(transaction, source: item.source, playerId: playerId)
    }

    private func restore(_ transaction: VerifiedTransaction, source: DeliverySource, playerId: String) async throws
        -> RestoreResult
    {
        var result = RestoreResult(
            transactionId: transaction.transactionId, originalTransactionId: transaction.originalTransactionId,
            productId: transaction.productId, status: .rejected)
        guard let product = catalog.product(transaction.productId), product.entitlement != nil else {
            result.status = .notRestorable
            result.code = "not_restorable"
            result.message = "only non-consumables and subscriptions are restored; a consumable is never granted again"
            return result
        }
        do {
            guard
                let holder = try await store.entitlement(
                    store: transaction.store, originalTransactionId: transaction.originalTransactionId)
            else {
                let delivered = try await deliverer.deliver(
                    transaction, source: source, claimant: .player(playerId, orderId: nil))
                try await settleAtGoogle(delivered, source: source)
                result.status = delivered.isFirstDelivery ? .restored : .alreadyOwned
                return result
            }
            // A period the holder has not received yet (a renewal) goes to the holder first.
            let delivered = try await deliverer.deliver(transaction, source: source, claimant: .appStore)
            try await settleAtGoogle(delivered, source: source)
            if holder.playerId == playerId {
                result.status = delivered.isFirstDelivery ? .restored : .alreadyOwned
                return result
            }
            switch policy {
            case .keepWithFirst:
                result.status = .keptByOtherPlayer
            case .refuse:
                result.status = .refused
                result.code = "restore_refused"
                result.message = "another player holds this purchase, and restores do not move purchases"
            case .transferToLatest:
                switch try await store.transferEntitlement(
                    store: holder.store, originalTransactionId: holder.originalTransactionId, to: playerId,
                    reason: "restore",
                    actor: playerId)
                {
                case .transferred: result.status = .transferred
                case .alreadyHeld: result.status = .alreadyOwned
                case .unknown:
                    result.code = "unknown_entitlement"
                    result.message = "the entitlement changed during the restore; restore again"
                }
            }
            return result
        } catch let refusal as DeliveryRefusal {
            result.code = refusal.reason
            result.message = refusal.message
            return result
        }
    }
}

extension RestoreDesk {
    /// Acknowledges (or consumes) at Google a Google Play purchase the restore found
    /// delivered, after the commit, as a report does; Apple's purchases need nothing.
    fileprivate func settleAtGoogle(_ delivered: DeliveryResult, source: DeliverySource) async throws {
        guard delivered.purchase.store == .googlePlay, let play else { return }
        try await play.acknowledger.settle(delivered.purchase, source: source)
    }
}

extension RestoreRequest.Item {
    /// How the device reported it.
    fileprivate var source: DeliverySource {
        switch self {
        case .signed: .clientSignedTransaction
        case .inReceipt: .clientReceipt
        case .googlePlay: .clientPlayPurchase
        }
    }

    /// The store that sold it.
    fileprivate var store: Store {
        switch self {
        case .signed, .inReceipt: .appStore
        case .googlePlay: .googlePlay
        }
    }

    /// The id the device claims, for a result whose transaction could not be read.
    fileprivate var transactionId: String? {
        switch self {
        case .signed: nil
        case .inReceipt(_, let transactionId): transactionId
        case .googlePlay(let report): report.orderId
        }
    }
}

import AppStoreModel
import Foundation
import Ledger

/// Restores what a device's App Store account owns to the reporting player
/// (`POST /v1/purchases/restore`): every current transaction the device reports is
/// verified, and non-consumables and subscriptions are delivered or re-linked according to
/// the ``RestoreTransferPolicy``. Consumables are never granted again.
struct RestoreDesk: Sendable {
    let store: any LedgerStore
    let catalog: ProductCatalog
    let verifier: TransactionVerifier
    let deliverer: PurchaseDeliverer
    let policy: RestoreTransferPolicy

    /// Restores `request`'s transactions to `playerId`, one after the other.
    ///
    /// - Throws: ``ServerError`` `400` for a body without 1 to 100 transactions; the
    ///   ledger's error when the database failed (what was done stays done: restoring again
    ///   answers `already_owned`), or an item that is not shaped as a compact JWS.
    func restore(playerId: String, _ request: RestoreRequest) async throws -> RestoreAnswer {
        guard (1...RestoreRequest.maximumCount).contains(request.signedTransactions.count) else {
            throw ServerError.invalidRequest("signedTransactions must hold 1 to \(RestoreRequest.maximumCount) items")
        }
        for (index, signed) in request.signedTransactions.enumerated() where !Self.isCompactJWS(signed) {
            throw ServerError.invalidRequest(
                "signedTransactions[\(index)] is not a compact JWS (three base64url segments joined by dots)")
        }
        var results: [RestoreResult] = []
        for signed in request.signedTransactions {
            results.append(try await restore(signed, playerId: playerId))
        }
        let entitlements = try await store.entitlements(playerId: playerId)
        let now = Date()
        return RestoreAnswer(results: results, entitlements: entitlements.map { EntitlementBody($0, at: now) })
    }

    /// Whether `text` has a compact JWS's shape: three non-empty base64url segments joined by
    /// dots (what the API document's pattern allows), so that malformed input is a 400, not a
    /// verification result.
    static func isCompactJWS(_ text: String) -> Bool {
        let segments = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return segments.count == 3
            && segments.allSatisfy { segment in
                !segment.isEmpty
                    && segment.allSatisfy { byte in
                        switch byte {
                        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                            true
                        default:
                            false
                        }
                    }
            }
    }

    private func restore(_ signed: String, playerId: String) async throws -> RestoreResult {
        let transaction: VerifiedTransaction
        do {
            transaction = try await verifier.transaction(signedTransaction: signed)
        } catch {
            try await deliverer.record(error, playerId: playerId, source: .clientSignedTransaction)
            return RestoreResult(status: .rejected, code: error.reason, message: error.message)
        }
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
            guard let holder = try await store.entitlement(originalTransactionId: transaction.originalTransactionId)
            else {
                let delivered = try await deliverer.deliver(
                    transaction, source: .clientSignedTransaction, claimant: .player(playerId, orderId: nil))
                result.status = delivered.isFirstDelivery ? .restored : .alreadyOwned
                return result
            }
            // A period the holder has not received yet (a renewal) goes to the holder first.
            let delivered = try await deliverer.deliver(
                transaction, source: .clientSignedTransaction, claimant: .appStore)
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
                    originalTransactionId: holder.originalTransactionId, to: playerId, reason: "restore",
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

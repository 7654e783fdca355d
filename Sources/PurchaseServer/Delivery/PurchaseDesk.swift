import AppStoreModel
import Foundation
import Ledger

/// What a player's device asks of the server: orders before paying, reports after, and
/// the wallet and order list to show.
struct PurchaseDesk: Sendable {
    let store: any LedgerStore
    let catalog: ProductCatalog
    let orderLifetime: TimeInterval
    let verifier: TransactionVerifier
    let deliverer: PurchaseDeliverer
    /// Google Play's verification and acknowledgement; `nil` while Play is off.
    let play: (verifier: PlayPurchaseVerifier, acknowledger: PlayAcknowledger)?

    /// Creates an order whose app account token binds the coming transaction to `playerId`.
    func createOrder(playerId: String, _ request: CreateOrderRequest) async throws -> Order {
        try RequestField.identifier(request.productId, .productId)
        guard catalog.product(request.productId) != nil else { throw ServerError.unknownProduct(request.productId) }
        let quantity = request.quantity ?? 1
        guard (1...10).contains(quantity) else { throw ServerError.invalidRequest("quantity must be 1 to 10") }
        let now = Date()
        return try await store.createOrder(
            Order(
                orderId: UUID().uuidString.lowercased(),
                playerId: playerId,
                productId: request.productId,
                quantity: quantity,
                appAccountToken: UUID().uuidString.lowercased(),
                createdAt: now,
                expiresAt: now.addingTimeInterval(orderLifetime)
            ))
    }

    /// Verifies and delivers what the device reports. Refusals are answers, not errors:
    /// the caller maps them to their HTTP status.
    func report(playerId: String, _ report: PurchaseReport) async throws -> (PurchaseAnswer, statusCode: Int) {
        do {
            let (transaction, source) = try await verify(report, playerId: playerId)
            let delivered = try await deliverer.deliverReport(
                transaction, source: source, playerId: playerId, orderId: report.orderId)
            if transaction.store == .googlePlay, let play {
                // After the commit, never before; a repeat report retries one that failed.
                try await play.acknowledger.settle(delivered.result.purchase, source: source)
            }
            let balances: [String: Int64]
            if let read = delivered.balances {
                balances = read
            } else {
                balances = try await store.wallet(playerId: playerId)
            }
            return (PurchaseAnswer(delivered.result, balances: balances), 200)
        } catch let refusal as DeliveryRefusal {
            var answer = PurchaseAnswer(refusal)
            if answer.orderId == nil { answer.orderId = report.orderId }
            return (answer, Int(refusal.status.code))
        }
    }

    private func verify(
        _ report: PurchaseReport, playerId: String
    ) async throws -> (VerifiedTransaction, DeliverySource) {
        try RequestField.identifier(report.orderId, .orderId)
        try RequestField.identifier(report.transactionId, .transactionId)
        if let googlePlay = report.googlePlay {
            return (try await verify(googlePlay, report: report, playerId: playerId), .clientPlayPurchase)
        }
        do {
            switch (report.signedTransaction, report.receipt, report.transactionId) {
            case (let jws?, nil, _):
                return (try await verifier.transaction(signedTransaction: jws), .clientSignedTransaction)
            case (nil, let receipt?, let transactionId?):
                var transaction = try await verifier.transaction(receipt: receipt, transactionId: transactionId)
                if report.orderId == nil {
                    transaction = try await verifier.bindingFromApple(transaction)
                }
                return (transaction, .clientReceipt)
            default:
                throw ServerError.invalidRequest(
                    "send signedTransaction, or receipt with transactionId (and orderId to bind it)")
            }
        } catch let refusal as DeliveryRefusal {
            let source: DeliverySource = report.signedTransaction != nil ? .clientSignedTransaction : .clientReceipt
            if let delivered = try await deliveredBefore(refusal, playerId: playerId) {
                return (delivered, source)
            }
            try await deliverer.record(refusal, playerId: playerId, source: source, store: .appStore)
            throw refusal
        }
    }

    /// Google's word on a Play report (``PlayPurchaseVerifier``); a refusal is recorded.
    private func verify(
        _ googlePlay: GooglePlayReport, report: PurchaseReport, playerId: String
    ) async throws -> VerifiedTransaction {
        guard report.signedTransaction == nil, report.receipt == nil, report.transactionId == nil else {
            throw ServerError.invalidRequest(
                "send googlePlay alone, without signedTransaction, receipt or transactionId")
        }
        guard let play else { throw ServerError.notConfigured("Google Play") }
        try googlePlay.checkFields(at: "googlePlay")
        do {
            return try await play.verifier.transaction(googlePlay, catalog: catalog)
        } catch {
            var refusal = error
            refusal.orderId = refusal.orderId ?? report.orderId
            try await deliverer.record(refusal, playerId: playerId, source: .clientPlayPurchase, store: .googlePlay)
            throw refusal
        }
    }

    /// The player's purchase a receipt no longer lists because it was finished after its
    /// delivery (a finished consumable leaves the receipt; the server finishes it at Apple,
    /// or the app does): the report is then answered as the delivery it repeats
    /// (`already_delivered`), not refused. The answer does not wait for the server's
    /// `finished_at_apple` record: a receipt read between Apple's finish and that record
    /// already lacks the transaction. `nil` for any other refusal, or a transaction not
    /// delivered to this player.
    private func deliveredBefore(_ refusal: DeliveryRefusal, playerId: String) async throws
        -> VerifiedTransaction?
    {
        guard refusal.reason == "transaction_not_in_receipt", let transactionId = refusal.transactionId,
            let purchase = try await store.purchase(store: .appStore, transactionId: transactionId),
            purchase.playerId == playerId
        else { return nil }
        return VerifiedTransaction(delivered: purchase)
    }
}

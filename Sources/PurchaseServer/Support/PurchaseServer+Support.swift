import AppStoreAPI
import AppStoreModel
import AppStoreVerification
import Foundation
import Ledger

/// What the support console asks of the server: Apple's word on an order or a transaction
/// (read-only), delivery of an owed transaction through the normal path, compensation, and
/// a reconciler pass. Failures are ``ServerError``s whose ``ServerError/code`` tells them
/// apart: `invalid_request`, `invalid_identifier`, `not_configured` (no App Store Server API key),
/// `apple_unavailable`, `not_found`, `verification_failed`, `apple_disagrees`.
extension PurchaseServer {
    /// The longest transaction id the console passes on to Apple, in bytes.
    package static let maximumTransactionIdBytes = 64

    /// Apple's Look Up Order ID for a customer's order id (from their e-mail receipt),
    /// read-only: nothing is delivered. Each transaction is verified and decoded and shown
    /// beside the ledger's purchase of it.
    ///
    /// - Throws: `invalid_request` for an id that is not 1 to 64 letters and digits;
    ///   `not_configured`; `apple_unavailable`; the ledger's error.
    package func lookUpAppleOrder(_ appleOrderId: String) async throws -> AppleOrderLookup {
        try OrderLookupDesk.checkAppleOrderId(appleOrderId)
        let desk = try orderLookupDesk()
        let response = try await desk.appleOrder(appleOrderId)
        var transactions: [AppleOrderLookup.Transaction] = []
        for signed in response.signedTransactions ?? [] {
            do {
                let payload = try await desk.jwsVerifier.verifyTransaction(signed)
                var purchase: Purchase?
                if let transactionId = payload.transactionId {
                    purchase = try await store.purchase(store: .appStore, transactionId: transactionId)
                }
                transactions.append(AppleOrderLookup.Transaction(payload: payload, purchase: purchase))
            } catch let error as VerificationError {
                transactions.append(AppleOrderLookup.Transaction(verificationFailure: error.code.rawValue))
            }
        }
        return AppleOrderLookup(
            appleOrderId: appleOrderId, status: response.status ?? .invalid, transactions: transactions)
    }

    /// What Apple signs for `transactionId` now (Get Transaction Info), verified and
    /// decoded; `nil` when Apple does not know the transaction.
    ///
    /// - Throws: `invalid_identifier` for a transaction id that is not an identifier
    ///   (``IdentifierRule``, at most 64 characters); `not_configured`;
    ///   `apple_unavailable` (Apple failed, or the revocation check could not be made);
    ///   `verification_failed` (the answer does not verify); `apple_disagrees` (it
    ///   describes another transaction).
    package func appleTransaction(_ transactionId: String) async throws -> JWSTransactionDecodedPayload? {
        try RequestField.identifier(transactionId, .transactionId)
        let desk = try orderLookupDesk()
        let signed: String
        do {
            signed = try await desk.client.getTransactionInfo(transactionId: transactionId)
        } catch {
            if error.isNotFound { return nil }
            throw ServerError.appleUnavailable("Get Transaction Info failed: \(error.kind.rawValue)")
        }
        let payload: JWSTransactionDecodedPayload
        do {
            payload = try await desk.jwsVerifier.verifyTransaction(signed)
        } catch {
            if error.isRetryable { throw ServerError.appleUnavailable(error.message) }
            throw ServerError(
                "verification_failed", "\(error.code.rawValue): \(error.message)", status: .badGateway)
        }
        guard payload.transactionId == transactionId else {
            throw ServerError(
                "apple_disagrees", "Get Transaction Info describes another transaction than \(transactionId)",
                status: .badGateway)
        }
        return payload
    }

    /// Delivers an owed transaction to the player support names, through the normal path:
    /// Get Transaction Info, verification, the shared delivery (source `admin_lookup`,
    /// claimed by support; an unbound transaction goes to `playerId` through an order made
    /// for it), then Apple's transaction is made to carry that order's token. Never a bare
    /// grant. Refusals (delivered before, revoked, unknown product…) are outcomes.
    ///
    /// - Throws: `invalid_identifier` for a player id that is not an identifier;
    ///   `not_found` when Apple does not know the transaction; the errors of
    ///   ``appleTransaction(_:)``; the ledger's error.
    package func deliverOwed(transactionId: String, toPlayer playerId: String) async throws -> SupportDelivery {
        try RequestField.identifier(playerId, .playerId)
        guard let payload = try await appleTransaction(transactionId) else {
            throw ServerError.notFound("transaction \(transactionId) at Apple")
        }
        let answer = try await orderLookupDesk().deliver(payload, playerId: playerId)
        let status: SupportDelivery.Status =
            switch answer.status {
            case .delivered: .delivered
            case .alreadyDelivered: .alreadyDelivered
            case .pending: .pending
            case .rejected: .rejected
            }
        return SupportDelivery(
            status: status, reason: answer.reason, message: answer.message, transactionId: transactionId,
            purchase: try await store.purchase(store: .appStore, transactionId: transactionId),
            appAccountTokenAtApple: answer.appAccountTokenAtApple?.status.rawValue)
    }

    /// Support compensation: grants (or takes, with negative amounts) `grants` to `playerId`
    /// with `reason`, recorded as ``HistoryEventType/manualGrant`` naming `actor`. The
    /// caller checks who may grant how much.
    ///
    /// - Throws: `invalid_identifier` for a player id that is not an identifier;
    ///   `invalid_request` for a reason or actor out of bounds or
    ///   grants the ledger refuses (empty, zero amounts); the ledger's error.
    package func grant(playerId: String, grants: Grants, reason: String, actor: String) async throws -> LedgerPosting {
        try RequestField.identifier(playerId, .playerId)
        try RequestField.check(reason, "reason", length: 1...1_024)
        try RequestField.check(actor, "actor", length: 1...128)
        guard !grants.isEmpty else { throw ServerError.invalidRequest("grants are required") }
        try RequestField.items(grants)
        do {
            return try await store.grantManually(playerId: playerId, grants: grants, reason: reason, actor: actor)
        } catch LedgerError.invalidGrants(let reason) {
            throw ServerError.invalidRequest(reason)
        }
    }

    /// Runs one reconciler pass now (waits for one of this server's under way), reading
    /// all of Apple's history since the checkpoint: support asked for it, and its summary
    /// counts what was read.
    ///
    /// - Throws: `not_configured` without the App Store Server API; the reconciler's
    ///   errors (``ReconcilerLeaseError`` while another instance's pass runs).
    package func runReconcilerPass() async throws -> Reconciler.Report {
        guard var reconciler else { throw ServerError.notConfigured("the App Store Server API") }
        reconciler.historyBudget = nil
        return try await reconciler.run()
    }

    /// The desk support's Apple lookups and deliveries go through; `not_configured`
    /// without the App Store Server API.
    func orderLookupDesk() throws(ServerError) -> OrderLookupDesk {
        guard let client = serverAPIClient else { throw .notConfigured("the App Store Server API") }
        return OrderLookupDesk(
            client: client, jwsVerifier: intake.verifier, deliverer: deliverer,
            binder: AppAccountTokenBinder(client: client, store: store, metrics: metrics, logger: logger),
            store: store)
    }
}

import AppStoreAPI
import AppStoreModel
import AppStoreVerification
import Foundation

/// Turns what a device reports (a signed transaction, or a receipt and the transaction id
/// it claims) into a ``VerifiedTransaction``, or refuses it with a stable reason.
///
/// Receipts are verified locally first; Apple's verifyReceipt is asked as a second opinion
/// or as a fallback for receipts local verification cannot read, as configured. A receipt
/// that local verification rejects as forged is never delivered, whatever Apple says.
/// A receipt does not carry the order's `appAccountToken`; when the App Store Server API is
/// configured, ``bindingFromApple(_:)`` fetches it.
struct TransactionVerifier: Sendable {
    let jwsVerifier: JWSVerifier
    let receiptVerifier: ReceiptVerifier
    let verifyReceiptClient: VerifyReceiptClient?
    let serverAPIClient: AppStoreServerAPIClient?
    let verifyReceiptMode: VerifyReceiptSettings.Mode
    let bundleId: String
    let allowedEnvironments: Set<AppStoreEnvironment>

    /// Verifies a StoreKit 2 signed transaction.
    func transaction(signedTransaction: String) async throws(DeliveryRefusal) -> VerifiedTransaction {
        let payload: JWSTransactionDecodedPayload
        do {
            payload = try await jwsVerifier.verifyTransaction(signedTransaction)
        } catch {
            throw .verificationFailed(error)
        }
        guard let transaction = VerifiedTransaction(payload) else {
            throw .rejected("malformed_payload", "the signed transaction has no transactionId or productId")
        }
        return transaction
    }

    /// Verifies a receipt and picks the transaction the client claims from it.
    func transaction(receipt: String, transactionId: String) async throws(DeliveryRefusal) -> VerifiedTransaction {
        do {
            let verified = try await receiptVerifier.verify(base64Encoded: receipt)
            let environment = verified.receipt.environment ?? .production
            guard let purchase = verified.receipt.inAppPurchases.first(where: { $0.transactionId == transactionId })
            else { throw DeliveryRefusal.transactionNotInReceipt(transactionId) }
            let transaction = VerifiedTransaction(purchase, environment: environment)
            if verifyReceiptMode == .secondOpinion {
                let apple = try await askApple(receipt: receipt, transactionId: transactionId)
                guard apple.productId == transaction.productId else {
                    throw DeliveryRefusal.rejected(
                        "apple_disagrees", "Apple's verifyReceipt names another product for \(transactionId)",
                        transactionId: transactionId)
                }
            }
            return transaction
        } catch let error as VerificationError {
            guard error.code == .unsupportedReceiptFormat, verifyReceiptMode != .off else {
                throw .rejected(error.code.rawValue, error.message, transactionId: transactionId)
            }
            return try await askApple(receipt: receipt, transactionId: transactionId)
        } catch let refusal as DeliveryRefusal {
            throw refusal
        } catch {
            throw .rejected("malformed_container", "\(error)", transactionId: transactionId)
        }
    }

    /// The transaction with the `appAccountToken` Apple holds for it (Get Transaction Info),
    /// so that a receipt reported without an order still reaches the player whose order
    /// paid, not whoever reports it. Unchanged when it has a token already, when the Server
    /// API is not configured, or when Apple does not know the transaction (Xcode testing).
    ///
    /// - Throws: `apple_unavailable` (pending: retry) while the Server API fails; a
    ///   verification code when its answer does not verify.
    func bindingFromApple(_ transaction: VerifiedTransaction) async throws(DeliveryRefusal) -> VerifiedTransaction {
        guard transaction.appAccountToken == nil, let client = serverAPIClient else { return transaction }
        let transactionId = transaction.transactionId
        let signed: String
        do {
            signed = try await client.getTransactionInfo(transactionId: transactionId)
        } catch {
            guard !error.isNotFound else { return transaction }
            throw .pending(
                "apple_unavailable", "Get Transaction Info failed: \(error.kind.rawValue)", transactionId: transactionId
            )
        }
        let payload: JWSTransactionDecodedPayload
        do {
            payload = try await jwsVerifier.verifyTransaction(signed)
        } catch {
            throw .verificationFailed(error, transactionId: transactionId)
        }
        guard payload.transactionId == transactionId, payload.productId == transaction.productId else {
            throw .rejected(
                "apple_disagrees", "Get Transaction Info describes another purchase than \(transactionId)",
                transactionId: transactionId)
        }
        var bound = transaction
        bound.appAccountToken = payload.appAccountToken
        return bound
    }

    /// Apple's verifyReceipt answer for the claimed transaction.
    private func askApple(receipt: String, transactionId: String) async throws(DeliveryRefusal) -> VerifiedTransaction {
        guard let client = verifyReceiptClient else {
            throw .pending("apple_unavailable", "verifyReceipt is not configured", transactionId: transactionId)
        }
        let response: VerifyReceiptResponse
        do {
            response = try await client.verify(receiptData: receipt)
        } catch {
            throw .pending(
                "apple_unavailable", "verifyReceipt failed: \(error.kind.rawValue)", transactionId: transactionId)
        }
        if response.status != .valid {
            if response.shouldRetry {
                throw .pending(
                    "apple_unavailable", "verifyReceipt answered \(response.status.rawValue); retry later",
                    transactionId: transactionId)
            }
            throw .rejected(
                "apple_rejected_receipt", "verifyReceipt answered status \(response.status.rawValue)",
                transactionId: transactionId)
        }
        guard response.receipt?.bundleId == bundleId else {
            throw .rejected(
                VerificationError.Code.bundleIdMismatch.rawValue, "verifyReceipt names another app's receipt",
                transactionId: transactionId)
        }
        let environment = response.environment ?? .production
        guard allowedEnvironments.contains(environment) else {
            throw .rejected(
                VerificationError.Code.environmentMismatch.rawValue, "a \(environment) receipt is not accepted here",
                transactionId: transactionId)
        }
        let candidates = (response.receipt?.inApp ?? []) + (response.latestReceiptInfo ?? [])
        guard let inApp = candidates.first(where: { $0.transactionId == transactionId }),
            let transaction = VerifiedTransaction(inApp, environment: environment)
        else { throw .transactionNotInReceipt(transactionId) }
        return transaction
    }
}

extension DeliveryRefusal {
    fileprivate static func transactionNotInReceipt(_ transactionId: String) -> DeliveryRefusal {
        .rejected(
            "transaction_not_in_receipt", "the receipt holds no transaction \(transactionId)",
            transactionId: transactionId)
    }
}

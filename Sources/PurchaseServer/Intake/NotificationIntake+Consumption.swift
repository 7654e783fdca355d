import AppStoreModel
import AppStoreVerification
import Foundation
import Ledger

extension NotificationIntake {
    /// Answers a `CONSUMPTION_REQUEST` through the ``ConsumptionResponder``, or records that
    /// answering is turned off (``ServerConfiguration/answerConsumptionRequests``).
    func answerConsumptionRequest(
        _ payload: JWSTransactionDecodedPayload, transaction: VerifiedTransaction, notificationUUID: String
    ) async throws {
        if let consumption {
            try await consumption.answer(payload, transaction: transaction, notificationUUID: notificationUUID)
            return
        }
        let holder = try await TransactionHolder.find(
            transactionId: transaction.transactionId, appAccountToken: transaction.appAccountToken, in: store)
        try await store.appendEvent(
            HistoryEvent(
                type: .consumptionInformationNotSent, playerId: holder?.playerId, orderId: holder?.orderId,
                transactionId: transaction.transactionId,
                detail: [
                    "reason": "answers_off", "notificationUUID": notificationUUID,
                    "message": "answerConsumptionRequests is off (or the App Store Server API is not configured)",
                ],
                createdAt: Date()))
    }

    /// Apple's `RESCIND_CONSENT`: records it against the App Store account of its signed app
    /// transaction and withdraws the consents given with that account (see
    /// ``LedgerStore/recordConsentRescission(_:)``).
    ///
    /// - Throws: ``ServerError`` `422` with the verification code when the nested signed app
    ///   transaction does not verify; the ledger's errors.
    func rescindConsent(_ notification: ResponseBodyV2DecodedPayload, notificationUUID: String) async throws {
        var appTransactionId: String?
        if let signed = notification.appData?.signedAppTransactionInfo {
            do {
                appTransactionId = try await verifier.verifyAppTransaction(signed).appTransactionId
            } catch {
                metrics.recordRefusal(.rejected(error.code.rawValue, error.message))
                throw ServerError(error.code.rawValue, error.message, status: .unprocessableContent)
            }
        }
        let rescission = ConsentRescission(
            notificationUUID: notificationUUID, appTransactionId: appTransactionId.flatMap { $0.isEmpty ? nil : $0 },
            signedDate: notification.signedDateValue, receivedAt: Date())
        if case .recorded(let withdrawn) = try await store.recordConsentRescission(rescission) {
            logger.notice(
                "RESCIND_CONSENT recorded",
                metadata: [
                    "appTransactionId": .string(rescission.appTransactionId ?? "none"),
                    "consentsWithdrawn": .stringConvertible(withdrawn.count),
                ])
        }
    }

    /// Records in the history that the server does not act on a notification it recorded,
    /// on its transaction and player when the ledger knows them.
    func recordNotActedOn(_ verified: VerifiedNotification, reason: String, message: String) async throws {
        let notification = verified.notification
        let transaction = verified.transaction.flatMap(VerifiedTransaction.init)
        var holder: TransactionHolder?
        if let transaction {
            holder = try await TransactionHolder.find(
                transactionId: transaction.transactionId, appAccountToken: transaction.appAccountToken, in: store)
        }
        var detail = ["notificationType": notification.notificationType?.rawValue ?? "UNKNOWN", "reason": reason]
        detail["message"] = message
        detail["notificationUUID"] = notification.notificationUUID
        detail["subtype"] = notification.subtype?.rawValue
        try await store.appendEvent(
            HistoryEvent(
                type: .notificationNotActedOn, playerId: holder?.playerId, orderId: holder?.orderId,
                transactionId: transaction?.transactionId ?? verified.transaction?.transactionId, detail: detail,
                createdAt: Date()))
    }
}

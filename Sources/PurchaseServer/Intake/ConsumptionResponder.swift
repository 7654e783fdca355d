import AppStoreAPI
import AppStoreModel
import Foundation
import Ledger

/// Answers Apple's `CONSUMPTION_REQUEST` with Send Consumption Information (V2), only for a
/// player whose consent to share consumption data the ledger records at that moment; every
/// outcome (sent, not sent and why, failed) is a history event of the transaction and, when
/// known, its player.
struct ConsumptionResponder: Sendable {
    let client: AppStoreServerAPIClient
    let store: any LedgerStore
    let settings: ConsumptionSettings

    /// Answers one request.
    ///
    /// - Parameters:
    ///   - payload: the notification's verified signed transaction.
    ///   - transaction: its facts.
    ///   - notificationUUID: the notification, for the history.
    /// - Throws: the ledger's errors, and Apple's when it may accept the answer later
    ///   (``AppStoreServerAPIError/isRetryable``): the notification then stays unprocessed
    ///   and is answered again when Apple retries it or the reconciler finds it. A refusal
    ///   that retrying cannot change is recorded and not thrown.
    func answer(
        _ payload: JWSTransactionDecodedPayload, transaction: VerifiedTransaction, notificationUUID: String
    ) async throws {
        let base = Outcome(transactionId: transaction.transactionId, notificationUUID: notificationUUID)
        guard
            let holder = try await TransactionHolder.find(
                transactionId: transaction.transactionId, appAccountToken: transaction.appAccountToken, in: store)
        else {
            try await record(base.notSent("purchase_unknown", "the ledger knows no player for this transaction"))
            return
        }
        let outcome = base.of(holder)
        let consent = try await store.consumptionConsent(
            playerId: holder.playerId, appTransactionId: payload.appTransactionId)
        guard let consent, consent.isGiven else {
            try await record(outcome.refused(consent))
            return
        }
        let report =
            holder.purchase == nil ? nil : try await store.consumption(transactionId: transaction.transactionId)
        let request = ConsumptionInformation.request(
            consent: consent, purchase: holder.purchase, report: report, productType: payload.type,
            settings: settings)
        do {
            try await client.sendConsumptionInformation(transactionId: transaction.transactionId, request)
        } catch {
            try await record(outcome.failed(error))
            if error.isRetryable { throw error }
            return
        }
        try await record(outcome.sent(request, consent: consent))
    }

    private func record(_ event: HistoryEvent) async throws {
        try await store.appendEvent(event)
    }

    /// The history events of one answer.
    private struct Outcome {
        var transactionId: String
        var notificationUUID: String
        var playerId: String?
        var orderId: String?

        init(transactionId: String, notificationUUID: String) {
            self.transactionId = transactionId
            self.notificationUUID = notificationUUID
        }

        func of(_ holder: TransactionHolder) -> Outcome {
            var outcome = self
            outcome.playerId = holder.playerId
            outcome.orderId = holder.orderId
            return outcome
        }

        func notSent(_ reason: String, _ message: String, _ extra: [String: String] = [:]) -> HistoryEvent {
            event(.consumptionInformationNotSent, extra.merging(["reason": reason, "message": message]) { $1 })
        }

        func refused(_ consent: ConsumptionConsent?) -> HistoryEvent {
            guard let consent else {
                return notSent("no_consent", "the player never consented to sharing consumption data")
            }
            var extra = [
                "withdrawnAt": Self.milliseconds(consent.changedAt),
                "withdrawnBy": consent.source.rawValue,
            ]
            extra["changedBy"] = consent.changedBy
            return notSent(
                "consent_withdrawn",
                "the player's consent was withdrawn at \(ISO8601DateFormatter().string(from: consent.changedAt)) "
                    + "(\(consent.source.rawValue))",
                extra)
        }

        func sent(_ request: ConsumptionRequest, consent: ConsumptionConsent) -> HistoryEvent {
            var detail = ["consentGivenAt": Self.milliseconds(consent.changedAt)]
            detail["deliveryStatus"] = request.deliveryStatus?.rawValue
            detail["sampleContentProvided"] = request.sampleContentProvided.map(String.init)
            detail["consumptionPercentage"] = request.consumptionPercentage.map(String.init)
            detail["refundPreference"] = request.refundPreference?.rawValue
            return event(.consumptionInformationSent, detail)
        }

        func failed(_ error: AppStoreServerAPIError) -> HistoryEvent {
            event(.consumptionInformationFailed, error.historyDetail)
        }

        /// Epoch milliseconds, as the ledger's event details write times.
        private static func milliseconds(_ date: Date) -> String {
            String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        }

        private func event(_ type: HistoryEventType, _ detail: [String: String]) -> HistoryEvent {
            HistoryEvent(
                type: type, playerId: playerId, orderId: orderId, transactionId: transactionId,
                detail: detail.merging(["notificationUUID": notificationUUID]) { $1 }, createdAt: Date())
        }
    }
}

import AppStoreAPI
import AppStoreModel
import Ledger

/// Answers Apple's `CONSUMPTION_REQUEST` with Send Consumption Information, from what the
/// ledger knows: whether the purchase was delivered and whether it still stands.
struct ConsumptionResponder: Sendable {
    let client: AppStoreServerAPIClient
    let store: any LedgerStore

    /// Apple's `deliveryStatus`: 0 delivered and working; 5 not delivered for other reasons.
    /// `consumptionStatus`: 0 undeclared (the ledger cannot tell what the player spent).
    func answer(transactionId: String, appAccountToken: String?) async throws {
        let purchase = try await store.purchase(transactionId: transactionId)
        let request = ConsumptionRequestV1(
            customerConsented: true,
            consumptionStatus: 0,
            platform: 1,
            sampleContentProvided: false,
            deliveryStatus: purchase?.status == .delivered ? 0 : 5,
            appAccountToken: appAccountToken ?? "",
            accountTenure: 0,
            playTime: 0,
            lifetimeDollarsRefunded: 0,
            lifetimeDollarsPurchased: 0,
            userStatus: 0,
            refundPreference: 0
        )
        try await client.sendConsumptionInformation(transactionId: transactionId, request)
    }
}

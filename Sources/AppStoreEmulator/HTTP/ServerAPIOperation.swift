/// The App Store Server API operations the emulator serves, named as Apple's documentation
/// names them: the key of each one's injected faults (`PUT /emulator/v1/faults`,
/// `endpoints.<name>`) and the name in its error messages.
enum ServerAPIOperation: String, CaseIterable, Sendable {
    case getTransactionInfo
    case getTransactionHistory
    case getRefundHistory
    case lookUpOrderId
    case getAppTransactionInfo
    case getAllSubscriptionStatuses
    case sendConsumptionInformation
    case setAppAccountToken
    case finishTransaction
    case requestTestNotification
    case getTestNotificationStatus
    case getNotificationHistory
}

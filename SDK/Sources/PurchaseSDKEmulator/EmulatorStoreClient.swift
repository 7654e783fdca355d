import Foundation
import PurchaseSDK

/// A ``StoreClient`` backed by the App Store emulator's device API
/// (`/emulator/v1/devices/{deviceId}`): for tests, `storekeeper demo` and simulations.
///
/// Transaction updates are found by polling the device's unfinished transactions, as a
/// phone learns of Ask to Buy approvals. Promoted purchases come from ``promote(productId:)``,
/// standing in for a customer tapping a promoted in-app purchase in the App Store.
public struct EmulatorStoreClient: StoreClient {
    /// How the emulated phone's StoreKit treats the order's token and the report.
    public enum StoreKitBehaviour: Sendable, Hashable {
        /// StoreKit 2: the token is kept and each transaction is signed.
        case storeKit2
        /// Apple dropped the token: the purchase carries none, as when `applicationUsername`
        /// is lost; the binding has to come from the journal.
        case dropsAppAccountToken
        /// StoreKit 1: transactions carry neither token nor signature; the app reports the
        /// receipt with the transaction id.
        case storeKit1
    }

    /// The emulator's base URL (the DevStack's, or `storekeeper emulator`'s).
    public let baseURL: URL
    /// The emulated phone.
    public let deviceId: String
    private let behaviour: StoreKitBehaviour
    private let http: EmulatorHTTP
    private let pollInterval: Duration
    private let promotions = PromotionBroadcaster()

    /// Creates a client for `deviceId`.
    ///
    /// - Parameters:
    ///   - baseURL: Where the emulator answers.
    ///   - deviceId: The emulated phone; created on first use.
    ///   - behaviour: How the phone's StoreKit behaves.
    ///   - pollInterval: How often ``transactionUpdates()`` looks at the unfinished list.
    ///   - transport: How requests are sent.
    public init(
        baseURL: URL, deviceId: String, behaviour: StoreKitBehaviour = .storeKit2,
        pollInterval: Duration = .milliseconds(250), transport: any NetworkTransport = URLSessionTransport()
    ) {
        self.baseURL = baseURL
        self.deviceId = deviceId
        self.behaviour = behaviour
        self.pollInterval = pollInterval
        http = EmulatorHTTP(baseURL: baseURL, transport: transport)
    }

    public func products(ids: [String]) async throws -> [StoreProduct] {
        try await EmulatorCatalog(http: http).products(ids: ids)
    }

    public func purchase(productId: String, appAccountToken: String, quantity: Int) async throws
        -> StorePurchaseResult
    {
        let request = DevicePurchaseBody(
            productId: productId, appAccountToken: behaviour == .dropsAppAccountToken ? nil : appAccountToken,
            quantity: quantity)
        let answer: DevicePurchaseAnswer = try await http.post(devicePath("purchases"), body: request)
        switch answer.outcome {
        case "purchased":
            guard let transactionId = answer.transactionId else { throw EmulatorClientError.unexpectedAnswer }
            return .purchased(
                transaction(
                    DeviceTransactionBody(
                        transactionId: transactionId, productId: productId, appAccountToken: request.appAccountToken,
                        signedTransaction: answer.signedTransaction, appTransactionId: answer.appTransactionId)))
        case "pending": return .pending
        default: throw EmulatorClientError.unexpectedAnswer
        }
    }

    public func transactionUpdates() -> AsyncStream<StoreTransaction> {
        UnfinishedTransactionPoller.updates(every: pollInterval) { try await unfinishedTransactions() }
    }

    public func unfinishedTransactions() async throws -> [StoreTransaction] {
        let transactions: [DeviceTransactionBody] = try await http.get(devicePath("transactions/unfinished"))
        return transactions.map(transaction)
    }

    /// `POST …/restore`: the current transaction of every non-consumable and subscription
    /// chain of the device's Apple account.
    public func currentTransactions() async throws -> [StoreTransaction] {
        let transactions: [DeviceTransactionBody] = try await http.post(devicePath("restore"), body: EmptyBody())
        return transactions.map(transaction)
    }

    public func finish(transactionId: String) async throws {
        let _: FinishAnswer = try await http.post(devicePath("transactions/\(transactionId)/finish"), body: EmptyBody())
    }

    public func receipt(refresh: Bool) async throws -> String? {
        let answer: ReceiptAnswer = try await http.get(devicePath("receipt"))
        return answer.appReceipt
    }

    public func promotedPurchases() -> AsyncStream<PromotedPurchase> {
        promotions.subscribe()
    }

    /// Stands in for the customer buying `productId` from its App Store page: the
    /// pipeline receives a promoted purchase.
    public func promote(productId: String) {
        promotions.send(PromotedPurchase(productId: productId))
    }

    private func devicePath(_ suffix: String) -> String {
        "emulator/v1/devices/\(deviceId)/\(suffix)"
    }

    /// The transaction as this phone's StoreKit shows it.
    private func transaction(_ body: DeviceTransactionBody) -> StoreTransaction {
        switch behaviour {
        case .storeKit2, .dropsAppAccountToken:
            StoreTransaction(
                transactionId: body.transactionId, productId: body.productId, appAccountToken: body.appAccountToken,
                signedTransaction: body.signedTransaction, appTransactionId: body.appTransactionId)
        case .storeKit1:
            StoreTransaction(
                transactionId: body.transactionId, productId: body.productId, appAccountToken: nil,
                signedTransaction: nil)
        }
    }
}

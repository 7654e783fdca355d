import Foundation
import PurchaseSDK

/// A ``StoreClient`` backed by the Google Play side of the emulator
/// (`/emulator/v1/play/devices/{deviceId}`, shaped like the Play Billing Library): for tests,
/// simulations and the C ABI on Linux.
///
/// A purchase passes the order's app account token as `obfuscatedAccountId`, which the
/// server binds the purchase to. Its transactions carry ``StoreTransaction/googlePlay``,
/// which the pipeline reports as `{"googlePlay": {"productId", "purchaseToken", "orderId"}}`;
/// their ``StoreTransaction/transactionId`` is Google's order id (`GPA.…`), so that logs
/// and events never hold the purchase token.
///
/// ``finish(transactionId:)`` does nothing at Google: the server acknowledges (or consumes)
/// the purchase itself once its delivery committed, because only the server knows that the
/// goods were granted. Acknowledging tells Google they were: a purchase the app acknowledged
/// whose report then failed or was refused would escape Google's refund of purchases left
/// unacknowledged for three days, and the player would have paid for nothing. A consumable
/// consumed on the device leaves `queryPurchasesAsync`, so a report not yet sent would
/// never be retried. So a purchase stays unfinished (``unfinishedTransactions()``) until
/// the server acknowledged it, and the pipeline may report it again meanwhile, which the
/// server answers without delivering twice.
public struct PlayEmulatorStoreClient: StoreClient {
    /// The emulator's base URL (the DevStack's, or `storekeeper emulator`'s).
    public let baseURL: URL
    /// The emulated Android device.
    public let deviceId: String
    private let paysSlowly: Bool
    private let http: EmulatorHTTP
    private let pollInterval: Duration

    /// Creates a client for `deviceId`.
    ///
    /// - Parameters:
    ///   - baseURL: Where the emulator answers.
    ///   - deviceId: The emulated Android device; created on first use.
    ///   - paysSlowly: Whether the buyer pays with a slow method (cash, bank transfer), so
    ///     that every purchase is pending until the test completes (`:complete`) or cancels it.
    ///   - pollInterval: How often ``transactionUpdates()`` looks at the device's purchases.
    ///   - transport: How requests are sent.
    public init(
        baseURL: URL, deviceId: String, paysSlowly: Bool = false, pollInterval: Duration = .milliseconds(250),
        transport: any NetworkTransport = URLSessionTransport()
    ) {
        self.baseURL = baseURL
        self.deviceId = deviceId
        self.paysSlowly = paysSlowly
        self.pollInterval = pollInterval
        http = EmulatorHTTP(baseURL: baseURL, transport: transport)
    }

    /// The emulator's catalog, which its Google Play side sells too.
    public func products(ids: [String]) async throws -> [StoreProduct] {
        try await EmulatorCatalog(http: http).products(ids: ids)
    }

    /// `launchBillingFlow` with `setObfuscatedAccountId(appAccountToken)`: `PURCHASED` is
    /// ``StorePurchaseResult/purchased(_:)``, `PENDING` ``StorePurchaseResult/pending``
    /// (the purchase arrives later through ``transactionUpdates()``, once paid).
    ///
    /// - Throws: ``EmulatorClientError/refused(status:code:message:)`` with the emulator's
    ///   code (`item_already_owned`, `unknown_product`, `invalid_request`, …);
    ///   ``EmulatorClientError/unexpectedAnswer`` for an answer it cannot read.
    public func purchase(productId: String, appAccountToken: String, quantity: Int) async throws
        -> StorePurchaseResult
    {
        let request = PlayPurchaseRequestBody(
            productId: productId, obfuscatedAccountId: appAccountToken, quantity: quantity, pending: paysSlowly)
        let answer: PlayDevicePurchaseBody = try await http.post(devicePath("purchases"), body: request)
        switch answer.purchaseState {
        case PlayLibraryPurchaseState.purchased: return .purchased(try transaction(answer).transaction)
        case PlayLibraryPurchaseState.pending: return .pending
        default: throw EmulatorClientError.unexpectedAnswer
        }
    }

    public func transactionUpdates() -> AsyncStream<StoreTransaction> {
        UnfinishedTransactionPoller.updates(every: pollInterval) { try await unfinishedTransactions() }
    }

    /// `queryPurchasesAsync`'s paid purchases that are not acknowledged yet: the ones the
    /// server has not delivered (or not yet acknowledged at Google).
    public func unfinishedTransactions() async throws -> [StoreTransaction] {
        try await paidPurchases().filter { !$0.acknowledged }.map(\.transaction)
    }

    /// `queryPurchasesAsync`'s paid purchases of non-consumables and subscriptions: what the
    /// Google account owns. (Consumables leave the list once the server consumed them.)
    public func currentTransactions() async throws -> [StoreTransaction] {
        let consumables = Set(
            try await EmulatorCatalog(http: http).all().filter(\.isConsumable).map(\.productId))
        return try await paidPurchases().map(\.transaction).filter { !consumables.contains($0.productId) }
    }

    /// Nothing: the server acknowledges or consumes the purchase at Google after its
    /// delivery committed (see the type's documentation for why the app must not).
    public func finish(transactionId: String) async throws {}

    /// `nil`: Google Play has no app receipt.
    public func receipt(refresh: Bool) async throws -> String? { nil }

    /// An empty stream: Google Play's promoted purchases are not emulated.
    public func promotedPurchases() -> AsyncStream<PromotedPurchase> {
        AsyncStream { $0.finish() }
    }

    private func devicePath(_ suffix: String) -> String {
        "emulator/v1/play/devices/\(deviceId)/\(suffix)"
    }

    /// The device's paid purchases (`queryPurchasesAsync` less the pending ones), each with
    /// whether it was acknowledged.
    private func paidPurchases() async throws -> [(transaction: StoreTransaction, acknowledged: Bool)] {
        let list: PlayDevicePurchaseListBody = try await http.get(devicePath("purchases"))
        return try list.purchases.filter { $0.purchaseState == PlayLibraryPurchaseState.purchased }.map(transaction)
    }

    /// The transaction a paid purchase is, read from its `originalJson`, whose token must be
    /// the purchase's.
    ///
    /// - Throws: ``EmulatorClientError/unexpectedAnswer`` for JSON it cannot read, a token
    ///   that differs, or a purchase without Google's order id.
    private func transaction(_ body: PlayDevicePurchaseBody) throws -> (
        transaction: StoreTransaction, acknowledged: Bool
    ) {
        guard let json = try? JSONDecoder().decode(PlayPurchaseJSON.self, from: Data(body.originalJson.utf8)),
            json.purchaseToken == body.purchaseToken, !json.purchaseToken.isEmpty, !json.productId.isEmpty,
            let orderId = body.orderId, !orderId.isEmpty
        else { throw EmulatorClientError.unexpectedAnswer }
        let transaction = StoreTransaction(
            transactionId: orderId, productId: json.productId, appAccountToken: json.obfuscatedAccountId,
            signedTransaction: nil,
            googlePlay: GooglePlayPurchase(
                productId: json.productId, purchaseToken: json.purchaseToken, orderId: orderId))
        return (transaction, json.acknowledged)
    }
}

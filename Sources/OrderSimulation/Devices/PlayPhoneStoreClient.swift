import Foundation
import PurchaseSDK
import PurchaseSDKEmulator
import Synchronization

/// An Android phone's Play Billing: the SDK's ``PlayEmulatorStoreClient`` over HTTP, whose
/// buyer pays the purchase at hand with a slow method (so that Google holds it pending) when
/// the phone's plan says so (``PaymentChoice``). Everything but the purchase itself is the
/// one client's.
struct PlayPhoneStoreClient: StoreClient {
    /// Pays at once.
    let quick: PlayEmulatorStoreClient
    /// Pays slowly: every purchase pending until completed or canceled.
    let slow: PlayEmulatorStoreClient
    /// How the buyer pays the next purchase.
    let payment: PaymentChoice

    func products(ids: [String]) async throws -> [StoreProduct] {
        try await quick.products(ids: ids)
    }

    func purchase(productId: String, appAccountToken: String, quantity: Int) async throws -> StorePurchaseResult {
        let client = payment.paysSlowly ? slow : quick
        return try await client.purchase(productId: productId, appAccountToken: appAccountToken, quantity: quantity)
    }

    func transactionUpdates() -> AsyncStream<StoreTransaction> {
        quick.transactionUpdates()
    }

    func unfinishedTransactions() async throws -> [StoreTransaction] {
        try await quick.unfinishedTransactions()
    }

    func currentTransactions() async throws -> [StoreTransaction] {
        try await quick.currentTransactions()
    }

    func finish(transactionId: String) async throws {
        try await quick.finish(transactionId: transactionId)
    }

    func receipt(refresh: Bool) async throws -> String? {
        try await quick.receipt(refresh: refresh)
    }

    func promotedPurchases() -> AsyncStream<PromotedPurchase> {
        quick.promotedPurchases()
    }
}

/// Whether an Android phone's buyer pays the next purchase with a slow method (cash, a bank
/// transfer): set by the phone before each purchase, read by its store client.
final class PaymentChoice: Sendable {
    private let slow = Mutex(false)

    /// Whether the next purchase is paid slowly.
    var paysSlowly: Bool {
        get { slow.withLock { $0 } }
        set { slow.withLock { $0 = newValue } }
    }
}

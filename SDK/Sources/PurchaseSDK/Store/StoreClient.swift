/// The App Store as the pipeline sees it: StoreKit on a device (`PurchaseSDKStoreKit`), the
/// emulator's device API (`PurchaseSDKEmulator`), or a test double. Value types only, so
/// the core never touches StoreKit.
public protocol StoreClient: Sendable {
    /// The products with these ids the store sells; unknown ids are left out.
    func products(ids: [String]) async throws -> [StoreProduct]

    /// Asks the store to charge for `productId`, binding the transaction to the order by
    /// `appAccountToken` (StoreKit 1: `applicationUsername`).
    ///
    /// - Parameters:
    ///   - productId: The product to buy.
    ///   - appAccountToken: The order's token, a lowercase UUID.
    ///   - quantity: How many, 1 to 10.
    func purchase(productId: String, appAccountToken: String, quantity: Int) async throws -> StorePurchaseResult

    /// Transactions that arrive outside a purchase call (Ask to Buy approved, interrupted
    /// purchases completed, purchases made on another device), as `Transaction.updates`.
    func transactionUpdates() -> AsyncStream<StoreTransaction>

    /// The transactions the app has not finished yet, as `Transaction.unfinished`.
    func unfinishedTransactions() async throws -> [StoreTransaction]

    /// The Apple account's current transactions, for a restore: the latest transaction of
    /// each non-consumable and subscription the account bought or was shared, as
    /// `Transaction.currentEntitlements`; never consumables, never refunded or revoked ones.
    func currentTransactions() async throws -> [StoreTransaction]

    /// Tells the store the transaction's goods were delivered; it stops listing it.
    func finish(transactionId: String) async throws

    /// The app receipt, base64, for the StoreKit 1 report path; `refresh` asks the store
    /// for a new one first.
    func receipt(refresh: Bool) async throws -> String?

    /// Purchases the customer started in the App Store (promoted in-app purchases), which
    /// the game must hold until a player is signed in.
    func promotedPurchases() -> AsyncStream<PromotedPurchase>
}

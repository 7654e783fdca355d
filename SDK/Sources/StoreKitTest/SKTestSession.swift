import Foundation
import StoreKit

/// The controls and environment configuration you use to test StoreKit transactions: on
/// Linux, against the StoreKeeper emulator named by `STOREKEEPER_STOREKIT_URL`, for the
/// device `STOREKEEPER_STOREKIT_DEVICE`.
///
/// Apple: `class SKTestSession` (https://developer.apple.com/documentation/storekittest/sktestsession).
/// As Apple's, every session controls the same environment; run tests that change it
/// serially. Its methods block until the emulator answered.
open class SKTestSession: NSObject {
    private let configuration: StoreKitConfigurationFile
    private var storedAskToBuy: Bool
    private var storedFailTransactions = false
    private var storedFailureError: SKError.Code = .unknown
    private var storedInterrupted = false

    /// Initializes the test session with the provided configuration file that you include
    /// in your application's bundle or your test bundle: looked for in `Bundle.main`, every
    /// loaded bundle, the SwiftPM resource bundles beside the test executable (a test
    /// target's `resources`, what `Bundle.module` opens), then the current directory.
    public convenience init(configurationFileNamed filename: String) throws {
        let name = filename.hasSuffix(".storekit") ? String(filename.dropLast(".storekit".count)) : filename
        guard let url = ConfigurationFileLocator.url(named: name) else {
            throw SKError(.unknown, userInfo: [NSLocalizedDescriptionKey: "no \(name).storekit in the app's bundles"])
        }
        try self.init(contentsOf: url)
    }

    /// Initializes the test session with a configuration file you provide through a URL:
    /// its products are added to the emulator's catalog and its settings applied.
    public init(contentsOf fileURL: URL) throws {
        configuration = try StoreKitConfigurationFile(contentsOf: fileURL)
        _ = try StoreKit1Call.client()  // configured, or SKError.clientInvalid
        storedAskToBuy = configuration.askToBuyEnabled
        super.init()
        try call { _ = try $0.addProducts(self.configuration.products) }
        try call { try $0.updateDevice(EmulatorWire.Device(askToBuy: self.configuration.askToBuyEnabled)) }
        failTransactionsEnabled = configuration.failTransactionsEnabled
    }

    /// A Boolean value that indicates whether to disable dialogs (the emulator shows none).
    open var disableDialogs = false

    /// A Boolean value that determines whether the testing environment simulates an Ask to Buy scenario.
    open var askToBuyEnabled: Bool {
        get { storedAskToBuy }
        set {
            storedAskToBuy = newValue
            try? call { try $0.updateDevice(EmulatorWire.Device(askToBuy: newValue)) }
        }
    }

    /// A Boolean value that determines whether purchases fail (with ``failureError``).
    open var failTransactionsEnabled: Bool {
        get { storedFailTransactions }
        set {
            storedFailTransactions = newValue
            TestHooks.shared.setFailing(newValue ? storedFailureError : nil)
        }
    }

    /// The error purchases fail with while ``failTransactionsEnabled`` (`.unknown` at first).
    open var failureError: SKError.Code {
        get { storedFailureError }
        set {
            storedFailureError = newValue
            if storedFailTransactions { TestHooks.shared.setFailing(newValue) }
        }
    }

    /// A Boolean value that determines whether purchases are interrupted until
    /// ``resolveIssueForTransaction(identifier:)``.
    open var interruptedPurchasesEnabled: Bool {
        get { storedInterrupted }
        set {
            storedInterrupted = newValue
            TestHooks.shared.setInterrupting(newValue)
        }
    }

    /// Removes all the transactions: unfinished ones are finished, then the device
    /// continues as a fresh emulator device (the emulator deletes nothing), with the
    /// session's Ask to Buy setting, so `Transaction.all`, entitlements, subscription
    /// statuses and restores start empty. The app receipt file is removed.
    open func clearTransactions() {
        try? call { client in
            for transaction in try client.unfinishedTransactions() {
                try client.finish(transactionId: transaction.transactionId)
            }
        }
        if let environment = try? StoreKitConfiguration.current(),
            let variable = ProcessInfo.processInfo.environment[StoreKitConfiguration.deviceVariable]
        {
            _ = ClearedDevices.shared.replace(variable, at: environment.emulatorURL)
            try? FileManager.default.removeItem(at: environment.receiptURL)
            try? call { try $0.updateDevice(EmulatorWire.Device(askToBuy: self.storedAskToBuy)) }
        }
        PendingIdentifiers.shared.clear()
    }

    /// Reverts the session's settings to those of the configuration file.
    open func resetToDefaultState() {
        disableDialogs = false
        askToBuyEnabled = configuration.askToBuyEnabled
        TestHooks.shared.reset()
        storedFailureError = .unknown
        storedInterrupted = false
        failTransactionsEnabled = configuration.failTransactionsEnabled
    }

    /// Resolves an Ask to Buy test scenario by approving the transaction.
    open func approveAskToBuyTransaction(identifier: Int) throws {
        let pendingId = try PendingIdentifiers.shared.pendingId(identifier)
        try call { _ = try $0.approve(pendingId: pendingId) }
    }

    /// Resolves an Ask to Buy test scenario by declining the transaction.
    open func declineAskToBuyTransaction(identifier: Int) throws {
        let pendingId = try PendingIdentifiers.shared.pendingId(identifier)
        try call { try $0.decline(pendingId: pendingId) }
    }

    /// Simulates a purchase of a product made outside the app (it reaches
    /// `Transaction.updates` and the payment queue's observers).
    open func buyProduct(productIdentifier: String) throws {
        try call { _ = try $0.purchase(productId: productIdentifier, appAccountToken: nil, quantity: 1) }
    }

    /// Refunds a transaction (the App Store's refund: `Transaction.updates` gets it revoked).
    open func refundTransaction(identifier: Int) throws {
        try call { try $0.refund(transactionId: String(identifier)) }
    }

    /// Expires a subscription: its renewal is turned off and it expires now.
    open func expireSubscription(productIdentifier: String) throws {
        try call { client in
            let original = try Self.originalTransactionId(client, productIdentifier)
            try client.setAutoRenew(originalTransactionId: original, enabled: false)
            try client.expire(originalTransactionId: original)
        }
    }

    /// Renews a subscription now (a renewal transaction reaches `Transaction.updates`).
    open func forceRenewalOfSubscription(productIdentifier: String) throws {
        try call { try $0.renew(originalTransactionId: try Self.originalTransactionId($0, productIdentifier)) }
    }

    /// Completes an interrupted purchase: the device is charged now, as by a purchase
    /// outside the app.
    open func resolveIssueForTransaction(identifier: Int) throws {
        guard let purchase = TestHooks.shared.resolve(identifier) else {
            throw SKError(.unknown, userInfo: [NSLocalizedDescriptionKey: "no interrupted purchase \(identifier)"])
        }
        try call { _ = try $0.purchase(productId: purchase.productID, appAccountToken: nil, quantity: 1) }
    }

    /// All the transactions in the testing environment: the account's transactions, the
    /// purchases waiting for Ask to Buy and the interrupted ones.
    open func allTransactions() -> [SKTestTransaction] {
        var result: [SKTestTransaction] = []
        try? call { client in
            for item in try client.allTransactions() {
                guard
                    let transaction = try? Transaction.verified(item.signedTransaction, client.configuration)
                        .unsafePayloadValue
                else { continue }
                result.append(
                    SKTestTransaction(
                        identifier: Int(transaction.id), originalTransactionIdentifier: Int(transaction.originalID),
                        productIdentifier: transaction.productID, state: .purchased,
                        purchaseDate: transaction.purchaseDate, refunded: transaction.revocationDate != nil))
            }
            for pending in try client.pendingPurchases() {
                let identifier = PendingIdentifiers.shared.identifier(pending.pendingId)
                result.append(
                    SKTestTransaction(
                        identifier: identifier, originalTransactionIdentifier: identifier,
                        productIdentifier: pending.productId, state: .deferred, purchaseDate: Date(),
                        pendingAskToBuyConfirmation: true))
            }
        }
        for purchase in TestHooks.shared.interruptedPurchases {
            result.append(
                SKTestTransaction(
                    identifier: purchase.identifier, originalTransactionIdentifier: purchase.identifier,
                    productIdentifier: purchase.productID, state: .failed, purchaseDate: purchase.date,
                    hasPurchaseIssue: true))
        }
        return result
    }

    // MARK: Implementation

    /// Runs `body` with a client for the environment now (the device may have been
    /// replaced by ``clearTransactions()``); its errors as `SKError`.
    private func call(_ body: (EmulatorClient) throws -> Void) throws {
        do {
            try body(try StoreKit1Call.client())
        } catch {
            throw SKError.from(error)
        }
    }

    private static func originalTransactionId(_ client: EmulatorClient, _ productIdentifier: String) throws -> String {
        let latest = try client.allTransactions().compactMap {
            try? Transaction.verified($0.signedTransaction, client.configuration).unsafePayloadValue
        }.filter { $0.productID == productIdentifier }.max { $0.purchaseDate < $1.purchaseDate }
        guard let latest else {
            throw SKError(.unknown, userInfo: [NSLocalizedDescriptionKey: "no subscription to \(productIdentifier)"])
        }
        return String(latest.originalID)
    }
}

/// The test identifiers of purchases waiting for Ask to Buy (the emulator names them by
/// UUID; Apple's test identifiers are `Int`s): from 100000 up, for this process.
///
/// `@unchecked Sendable` is safe: `byPendingId` and `next` are read and written only while
/// `lock` is held.
final class PendingIdentifiers: @unchecked Sendable {
    static let shared = PendingIdentifiers()

    private let lock = NSLock()
    private var byPendingId: [String: Int] = [:]
    private var next = 100_000

    func identifier(_ pendingId: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if let known = byPendingId[pendingId] { return known }
        defer { next += 1 }
        byPendingId[pendingId] = next
        return next
    }

    func pendingId(_ identifier: Int) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        guard let pendingId = byPendingId.first(where: { $0.value == identifier })?.key else {
            throw SKError(.unknown, userInfo: [NSLocalizedDescriptionKey: "no Ask to Buy transaction \(identifier)"])
        }
        return pendingId
    }

    func clear() {
        lock.lock()
        defer { lock.unlock() }
        byPendingId = [:]
    }
}

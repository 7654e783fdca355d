import AppStoreModel
import AppStoreSigning
import Foundation

/// What a phone's StoreKit does: buy, list unfinished transactions, finish, show the receipt.
extension AppStoreEmulator {
    /// The device's settings, created with defaults on first use.
    public func device(_ deviceId: String) -> EmulatedDevice {
        state.device(deviceId)
    }

    /// Changes a device's environment, Ask to Buy, Apple account or billing fault.
    @discardableResult
    public func updateDevice(_ deviceId: String, settings: DeviceSettings) throws -> EmulatedDevice {
        var device = state.device(deviceId)
        if let environment = settings.environment { device.environment = environment }
        if let askToBuy = settings.askToBuy { device.askToBuy = askToBuy }
        if let appleAccount = settings.appleAccount {
            guard !appleAccount.isEmpty else {
                throw EmulatorError("invalid_apple_account", "appleAccount must not be empty")
            }
            device.appleAccount = appleAccount
        }
        if let billingFails = settings.billingFails { device.billingFails = billingFails }
        try commit([.device(device)])
        return device
    }

    /// Buys a product on a device: charges it (or holds it for Ask to Buy), signs the
    /// transaction, and sends ONE_TIME_CHARGE for one-time purchases, SUBSCRIBED
    /// INITIAL_BUY for a first subscription in a group, SUBSCRIBED RESUBSCRIBE for a
    /// subscription whose chain on the Apple account expired or was revoked (the new
    /// transaction joins that chain).
    ///
    /// - Parameters:
    ///   - deviceId: The device that buys.
    ///   - request: What it buys.
    ///   - includesReceipt: Whether the result carries the device's app receipt
    ///     (``PurchaseResult/appReceipt``), signed anew with RSA for every charge; a caller
    ///     that asks ``receipt(deviceId:)`` when it needs one passes `false`.
    /// - Throws: ``EmulatorError`` `already_subscribed` (409) when the Apple account's chain
    ///   in the product's group is active, in grace period or in billing retry.
    public func purchase(
        deviceId: String, _ request: PurchaseRequest, includesReceipt: Bool = true
    ) async throws -> PurchaseResult {
        guard let product = catalog.product(request.productId) else {
            throw EmulatorError.unknownProduct(request.productId)
        }
        let quantity = request.quantity ?? 1
        guard (1...10).contains(quantity) else {
            throw EmulatorError("invalid_quantity", "quantity must be 1 to 10, not \(quantity)")
        }
        // Refused now rather than when an Ask to Buy approval charges it.
        _ = try product.price(quantity: quantity)
        if let token = request.appAccountToken, UUID(uuidString: token) == nil {
            throw EmulatorError("invalid_app_account_token", "appAccountToken must be a UUID")
        }
        let device = state.device(deviceId)
        let environment = request.environment ?? device.environment
        if device.askToBuy {
            let pending = PendingPurchase(
                pendingId: UUID().uuidString.lowercased(),
                deviceId: deviceId,
                productId: request.productId,
                quantity: quantity,
                appAccountToken: request.appAccountToken?.lowercased(),
                environment: environment
            )
            try commit([.device(device), .pendingPurchase(pending)])
            return PurchaseResult(outcome: "pending", pendingId: pending.pendingId)
        }
        return try await charge(
            deviceId: deviceId,
            productId: request.productId,
            quantity: quantity,
            appAccountToken: request.appAccountToken?.lowercased(),
            environment: environment,
            extraRecords: [.device(device)],
            includesReceipt: includesReceipt
        )
    }

    /// Approves an Ask to Buy purchase: the device is charged now. The result carries the
    /// device's app receipt when `includesReceipt` (see
    /// ``purchase(deviceId:_:includesReceipt:)``).
    public func approvePendingPurchase(_ pendingId: String, includesReceipt: Bool = true) async throws
        -> PurchaseResult
    {
        let pending = try pendingPurchase(pendingId)
        return try await charge(
            deviceId: pending.deviceId,
            productId: pending.productId,
            quantity: pending.quantity,
            appAccountToken: pending.appAccountToken,
            environment: pending.environment,
            extraRecords: [.pendingResolved(pendingId: pendingId)],
            includesReceipt: includesReceipt
        )
    }

    /// Declines an Ask to Buy purchase: nothing is charged.
    public func declinePendingPurchase(_ pendingId: String) throws {
        _ = try pendingPurchase(pendingId)
        try commit([.pendingResolved(pendingId: pendingId)])
    }

    /// The purchases waiting for approval on a device.
    public func pendingPurchases(deviceId: String) -> [PendingPurchase] {
        state.pendingPurchases.values.filter { $0.deviceId == deviceId }.sorted { $0.pendingId < $1.pendingId }
    }

    /// Transactions the app has not finished, as `Transaction.unfinished` lists them:
    /// consumables until finished; nothing refunded.
    public func unfinishedTransactions(deviceId: String) throws -> [DeviceTransaction] {
        try (state.unfinishedByDevice[deviceId] ?? []).compactMap { state.transactions[$0] }.map(deviceTransaction)
    }

    /// Finishes a transaction for the device that bought it.
    public func finishTransaction(deviceId: String, transactionId: String) throws {
        var transaction = try transaction(transactionId)
        guard transaction.deviceId == deviceId else {
            throw EmulatorError(
                "transaction_of_other_device", "transaction \(transactionId) was not bought on \(deviceId)", status: 404
            )
        }
        guard !transaction.finished else { return }
        transaction.finished = true
        try commit([.transaction(transaction)])
    }

    /// The device's app receipt now, base64, for its own environment.
    public func receipt(deviceId: String) throws -> String {
        try receipt(deviceId: deviceId, environment: state.device(deviceId).environment)
    }

    /// The device's app receipt for `environment`: every purchase it holds, consumables
    /// only until finished.
    public func receipt(deviceId: String, environment: AppStoreEnvironment) throws -> String {
        let purchases = try state.receiptTransactions(of: deviceId, in: environment).map { try $0.inAppPurchase() }
        let receipt = AppReceipt(
            receiptType: environment == .production ? "Production" : "ProductionSandbox",
            bundleId: configuration.bundleId,
            appVersion: "1",
            opaqueValue: Data((0..<16).map { _ in UInt8.random(in: 0...255) }),
            sha1Hash: Data((0..<20).map { _ in UInt8.random(in: 0...255) }),
            creationDate: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)),
            originalAppVersion: "1.0",
            inAppPurchases: purchases
        )
        return Data(try receiptSigner.sign(receipt)).base64EncodedString()
    }

    /// The catalog.
    public nonisolated var products: [EmulatorProduct] { catalog.products }

    /// Every charge made, in order: the ground truth to compare a server's ledger with.
    public func ledger() -> [EmulatedTransaction] {
        state.transactionOrder.compactMap { state.transactions[$0] }
    }

    private func pendingPurchase(_ pendingId: String) throws(EmulatorError) -> PendingPurchase {
        guard let pending = state.pendingPurchases[pendingId] else {
            throw EmulatorError("unknown_pending_purchase", "no pending purchase \(pendingId)", status: 404)
        }
        return pending
    }

    func deviceTransaction(_ transaction: EmulatedTransaction) throws -> DeviceTransaction {
        DeviceTransaction(
            transactionId: transaction.transactionId,
            productId: transaction.productId,
            appAccountToken: transaction.appAccountToken,
            signedTransaction: try signedTransaction(transaction),
            orderId: transaction.orderId,
            appTransactionId: transaction.appTransactionId
        )
    }

    private func charge(
        deviceId: String,
        productId: String,
        quantity: Int,
        appAccountToken: String?,
        environment: AppStoreEnvironment,
        extraRecords: [EmulatorRecord],
        includesReceipt: Bool
    ) async throws -> PurchaseResult {
        guard let product = catalog.product(productId) else {
            throw EmulatorError.unknownProduct(productId)
        }
        let price = try product.price(quantity: quantity)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        // A subscription chain the Apple account already has in the group is resubscribed.
        let previous = try chainToResubscribe(deviceId: deviceId, product: product, environment: environment)
        var transaction = try mintTransaction(
            deviceId: deviceId, product: product, price: price, environment: environment, purchaseDate: now,
            originalTransactionId: previous?.originalTransactionId)
        transaction.quantity = quantity
        transaction.appAccountToken = appAccountToken
        transaction.originalPurchaseDate = previous?.originalPurchaseDate
        let transactionId = transaction.transactionId
        var records = extraRecords + [EmulatorRecord.transaction(transaction)]
        let notification: EmulatedNotification
        if product.type == .autoRenewable {
            var chain = previous ?? EmulatedSubscription(first: transaction)
            chain.restart(with: transaction, at: now)
            records.append(.subscription(chain))
            notification = try makeNotification(
                .subscribed, subtype: previous == nil ? .initialBuy : .resubscribe, transaction: transaction,
                subscription: chain)
        } else {
            notification = try makeNotification(.oneTimeCharge, transaction: transaction)
        }
        try commit(records + [.notification(notification)])
        await send(notification)
        return PurchaseResult(
            outcome: "purchased",
            transactionId: transactionId,
            signedTransaction: try signedTransaction(transaction),
            appReceipt: includesReceipt ? try receipt(deviceId: deviceId, environment: environment) : nil,
            orderId: transaction.orderId,
            appTransactionId: transaction.appTransactionId
        )
    }
}

extension EmulatedTransaction {
    /// The transaction as an app receipt lists it.
    ///
    /// - Throws: ``EmulatorError`` `corrupt_state` when ``webOrderLineItemId`` is not the
    ///   64-bit integer a receipt holds (the emulator writes only such ids: a journal
    ///   edited by hand can hold another).
    func inAppPurchase() throws(EmulatorError) -> InAppPurchase {
        var webOrderLineItemNumber: Int64?
        if let webOrderLineItemId {
            guard let number = Int64(webOrderLineItemId) else {
                throw EmulatorError(
                    "corrupt_state",
                    "transaction \(transactionId) has webOrderLineItemId \"\(webOrderLineItemId)\", "
                        + "not a 64-bit integer",
                    status: 500)
            }
            webOrderLineItemNumber = number
        }
        let purchased = Date(timeIntervalSince1970: Double(purchaseDate / 1000))
        let originallyPurchased = Date(timeIntervalSince1970: Double((originalPurchaseDate ?? purchaseDate) / 1000))
        return InAppPurchase(
            quantity: quantity,
            productId: productId,
            transactionId: transactionId,
            originalTransactionId: originalTransactionId,
            purchaseDate: purchased,
            originalPurchaseDate: originallyPurchased,
            subscriptionExpirationDate: expiresDate.map { Date(timeIntervalSince1970: Double($0 / 1000)) },
            cancellationDate: isRevoked ? revocationDate.map { Date(timeIntervalSince1970: Double($0 / 1000)) } : nil,
            webOrderLineItemId: webOrderLineItemNumber
        )
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}

import Foundation

/// A queue of payment transactions for the App Store (the emulator) to process.
///
/// Apple: `class SKPaymentQueue` (https://developer.apple.com/documentation/storekit/skpaymentqueue).
/// Observers are called on the main queue, as Apple calls them. While an observer is
/// added, the queue polls the emulator's unfinished transactions every quarter second, so
/// transactions from earlier launches, approved Ask to Buy purchases and purchases made
/// outside the app reach `paymentQueue(_:updatedTransactions:)`, and products promoted to
/// the device reach `paymentQueue(_:shouldAddStorePayment:for:)`.
///
/// A queue belongs to the device of the ``StoreKitDevice`` it was created in, if any
/// (`device`, never changed); `default()` inside a ``StoreKitDevice/run(_:)`` answers
/// that device's queue.
///
/// `@unchecked Sendable` is safe: `device` is a constant; `observers`, `queued`, `known`,
/// `charging` and `poller` are read and written only while `lock` is held; the transactions and observers they hold are
/// mutated and called only on the main queue (see `MainQueueReference`).
open class SKPaymentQueue: NSObject, @unchecked Sendable {
    private static let shared = StoreKitConfiguration.$scoped.withValue(nil) { SKPaymentQueue() }

    /// The ``StoreKitDevice`` this queue speaks for; `nil`: the process's environment.
    private let device = StoreKitConfiguration.scoped
    private let lock = NSLock()
    private var observers: [any SKPaymentTransactionObserver] = []
    private var queued: [SKPaymentTransaction] = []
    /// Transactions the queue delivered in this process, by ``knownKey(_:)``: ids are
    /// unique per emulator only, and a process may talk to several in turn.
    private var known: Set<String> = []
    /// The products whose payment is being charged, with how many: the polling leaves their
    /// unknown transactions for its next round, by when the charge's answer made them known
    /// (else a purchase would come twice: as its payment's, and as an unknown one).
    private var charging: [String: Int] = [:]
    private var poller: Task<Void, Never>?

    /// Returns the default payment queue instance (inside a ``StoreKitDevice/run(_:)``,
    /// that device's).
    open class func `default`() -> Self {
        guard let device = StoreKitConfiguration.scoped else { return shared as! Self }
        return DeviceQueues.shared.queue(for: device) as! Self
    }

    /// Indicates whether the user is allowed to make payments: `true` when StoreKit for
    /// Linux is configured.
    open class func canMakePayments() -> Bool {
        (try? StoreKitConfiguration.current()) != nil
    }

    /// Returns an array of pending transactions.
    open var transactions: [SKPaymentTransaction] {
        locked { queued }
    }

    /// An array of all active payment queue observers.
    open var transactionObservers: [any SKPaymentTransactionObserver] {
        locked { observers }
    }

    /// Adds an observer to the payment queue; the first one starts the queue's
    /// synchronisation with the emulator. As when an app adds its observer at launch, the
    /// transactions an earlier launch left unfinished are in ``transactions`` when this
    /// returns, and reach the observers on the main queue.
    open func add(_ observer: any SKPaymentTransactionObserver) {
        let start = locked { () -> Bool in
            guard !observers.contains(where: { $0 === observer }) else { return false }
            observers.append(observer)
            return poller == nil
        }
        guard start else { return }
        adoptUnfinished()
        startPolling()
    }

    /// Removes an observer from the payment queue; the last one stops the polling.
    open func remove(_ observer: any SKPaymentTransactionObserver) {
        let task = locked { () -> Task<Void, Never>? in
            observers.removeAll { $0 === observer }
            guard observers.isEmpty else { return nil }
            defer { poller = nil }
            return poller
        }
        task?.cancel()
    }

    /// Adds a payment request to the queue.
    open func add(_ payment: SKPayment) {
        let transaction = SKPaymentTransaction(payment: payment.snapshot(), state: .purchasing)
        let reference = MainQueueReference(transaction)
        let (productId, quantity, username, askToBuy) = (
            payment.productIdentifier, payment.quantity, payment.applicationUsername,
            payment.simulatesAskToBuyInSandbox
        )
        onMain { queue in
            queue.locked {
                queue.queued.append(reference.object)
                queue.charging[productId, default: 0] += 1
            }
            queue.notifyUpdated([reference.object])
            DispatchQueue.global().async {
                let outcome = Result { try queue.charge(productId, quantity, username, askToBuy) }
                DispatchQueue.main.async { queue.complete(reference.object, outcome) }
            }
        }
    }

    /// Completes a pending transaction. The observers hear of it in
    /// `paymentQueue(_:removedTransactions:)` once the App Store (the emulator) has: a
    /// purchased or restored transaction is finished there first.
    open func finishTransaction(_ transaction: SKPaymentTransaction) {
        let reference = MainQueueReference(transaction)
        onMain { queue in
            let transaction = reference.object
            let removed = queue.locked { () -> Bool in
                let count = queue.queued.count
                queue.queued.removeAll { $0 === transaction }
                return queue.queued.count != count
            }
            guard removed else { return }
            guard let id = transaction.transactionIdentifier,
                transaction.transactionState == .purchased || transaction.transactionState == .restored
            else {
                queue.notifyRemoved(transaction)
                return
            }
            DispatchQueue.global().async {
                if let client = try? queue.client() {
                    try? client.finish(transactionId: id)
                    try? ReceiptFile.refresh(client)
                }
                DispatchQueue.main.async { queue.notifyRemoved(reference.object) }
            }
        }
    }

    /// Asks the payment queue to restore previously completed purchases.
    open func restoreCompletedTransactions() {
        restoreCompletedTransactions(withApplicationUsername: nil)
    }

    /// Asks the payment queue to restore previously completed purchases, providing an
    /// opaque identifier for the user's account.
    open func restoreCompletedTransactions(withApplicationUsername username: String?) {
        let queue = self
        DispatchQueue.global().async {
            let outcome = Result { () -> [EmulatorWire.DeviceTransaction] in
                let client = try queue.client()
                let restored = try client.restore()
                try ReceiptFile.refresh(client)
                return restored
            }
            DispatchQueue.main.async {
                switch outcome {
                case .success(let restored):
                    let transactions = restored.map { queue.restoredTransaction($0, username: username) }
                    queue.locked {
                        queue.queued += transactions
                        queue.known.formUnion(restored.map { queue.knownKey($0.transactionId) })
                    }
                    if !transactions.isEmpty { queue.notifyUpdated(transactions) }
                    for observer in queue.transactionObservers {
                        observer.paymentQueueRestoreCompletedTransactionsFinished(queue)
                    }
                case .failure(let error):
                    for observer in queue.transactionObservers {
                        observer.paymentQueue(queue, restoreCompletedTransactionsFailedWithError: SKError.from(error))
                    }
                }
            }
        }
    }

    // MARK: Implementation

    private enum Charge: Sendable {
        case purchased(EmulatorWire.DeviceTransaction)
        case deferred(pendingId: String)
        case failed(SKError)
    }

    private func charge(_ productId: String, _ quantity: Int, _ username: String?, _ askToBuy: Bool) throws
        -> Charge
    {
        let client = try self.client()
        switch TestHooks.shared.purchaseFailure(for: productId) {
        case .failed(let code): return .failed(SKError(code))
        case .interrupted: return .failed(SKError(.unknown, userInfo: [NSLocalizedDescriptionKey: "interrupted"]))
        case nil: break
        }
        let answer = try AskToBuy.purchasing(client, simulated: askToBuy) {
            try client.purchase(
                productId: productId, appAccountToken: username.flatMap(UUID.init(uuidString:)), quantity: quantity)
        }
        if answer.outcome == "pending", let pendingId = answer.pendingId { return .deferred(pendingId: pendingId) }
        guard let id = answer.transactionId, let signed = answer.signedTransaction else {
            throw EmulatorRequestError(status: 200, code: "unreadable_answer", message: "no transaction")
        }
        try ReceiptFile.refresh(client)
        return .purchased(
            EmulatorWire.DeviceTransaction(
                transactionId: id, productId: productId, appAccountToken: nil, signedTransaction: signed))
    }

    /// On the main queue: the charge's outcome for `transaction`.
    private func complete(_ transaction: SKPaymentTransaction, _ outcome: Result<Charge, any Error>) {
        let productId = transaction.payment.productIdentifier
        defer {
            locked {
                charging[productId, default: 1] -= 1
                if charging[productId] == 0 { charging[productId] = nil }
            }
        }
        switch outcome {
        case .success(.purchased(let bought)):
            locked { _ = known.insert(knownKey(bought.transactionId)) }
            transaction.transactionIdentifier = bought.transactionId
            transaction.transactionDate = Self.purchaseDate(of: bought.signedTransaction)
            transaction.transactionState = .purchased
        case .success(.deferred(let pendingId)):
            transaction.pendingId = pendingId
            transaction.transactionState = .deferred
        case .success(.failed(let error)):
            transaction.error = error
            transaction.transactionState = .failed
        case .failure(let error):
            transaction.error = SKError.from(error)
            transaction.transactionState = .failed
        }
        notifyUpdated([transaction])
    }

    /// Puts the emulator's unfinished transactions the queue has not delivered into the
    /// queue now, as purchased, and tells the observers on the main queue. One that may
    /// complete a deferred transaction of the queue, or be the answer of a payment being
    /// charged, is left to the polling.
    private func adoptUnfinished() {
        guard let unfinished = try? client().unfinishedTransactions() else { return }
        let adopted = locked { () -> [SKPaymentTransaction] in
            let deferred = Set(queued.filter { $0.transactionState == .deferred }.map(\.payment.productIdentifier))
            var adopted: [SKPaymentTransaction] = []
            for item in unfinished where !deferred.contains(item.productId) && charging[item.productId] == nil {
                guard known.insert(knownKey(item.transactionId)).inserted else { continue }
                adopted.append(Self.purchased(item))
            }
            queued += adopted
            return adopted
        }
        guard !adopted.isEmpty else { return }
        let references = adopted.map(MainQueueReference.init)
        onMain { queue in queue.notifyUpdated(references.map(\.object)) }
    }

    /// Polls the emulator's unfinished transactions while observers are added.
    private func startPolling() {
        let queue = self
        let task = Task.detached {
            while !Task.isCancelled {
                if let unfinished = try? await EmulatorClient.run({
                    try queue.client().unfinishedTransactions()
                }) {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        DispatchQueue.main.async {
                            queue.deliverUnknown(unfinished)
                            done.resume()
                        }
                    }
                }
                if let promoted = try? await EmulatorClient.run({ try queue.client().takePromotions() }),
                    !promoted.isEmpty
                {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        DispatchQueue.main.async {
                            queue.offerPromotions(promoted)
                            done.resume()
                        }
                    }
                }
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        locked { poller = task }
    }

    /// On the main queue: unfinished transactions the queue has not delivered, as
    /// purchased (an approved Ask to Buy purchase completes its deferred transaction).
    private func deliverUnknown(_ unfinished: [EmulatorWire.DeviceTransaction]) {
        var updated: [SKPaymentTransaction] = []
        for item in unfinished
        where !locked({ known.contains(knownKey(item.transactionId)) || charging[item.productId] != nil }) {
            let transaction: SKPaymentTransaction
            if let deferred = locked({
                queued.first { $0.transactionState == .deferred && $0.payment.productIdentifier == item.productId }
            }) {
                transaction = deferred
                transaction.transactionIdentifier = item.transactionId
                transaction.transactionDate = Self.purchaseDate(of: item.signedTransaction)
                transaction.transactionState = .purchased
            } else {
                transaction = Self.purchased(item)
                locked { queued.append(transaction) }
            }
            locked { _ = known.insert(knownKey(item.transactionId)) }
            updated.append(transaction)
        }
        if !updated.isEmpty { notifyUpdated(updated) }
    }

    /// A purchased transaction the app did not pay for in this queue (an earlier launch's,
    /// an approved Ask to Buy, a purchase outside the app), as the emulator lists it.
    private static func purchased(_ item: EmulatorWire.DeviceTransaction) -> SKPaymentTransaction {
        let payment = SKMutablePayment()
        payment.productIdentifier = item.productId
        payment.applicationUsername = item.appAccountToken
        let transaction = SKPaymentTransaction(payment: payment.snapshot(), state: .purchased)
        transaction.transactionIdentifier = item.transactionId
        transaction.transactionDate = purchaseDate(of: item.signedTransaction)
        return transaction
    }

    /// On the main queue: asks the observers about each promoted product
    /// (`paymentQueue(_:shouldAddStorePayment:for:)`) and adds its payment unless one of
    /// them answers `false` (the app then keeps the payment and adds it when it is ready).
    private func offerPromotions(_ promoted: [EmulatorWire.Product]) {
        for wire in promoted {
            let product = SKProduct(wire)
            let payment = SKPayment(product: product)
            let answers = transactionObservers.map {
                $0.paymentQueue(self, shouldAddStorePayment: payment, for: product)
            }
            if !answers.contains(false) { add(payment) }
        }
    }

    /// `app key|transaction id`, for this queue's configuration now.
    private func knownKey(_ transactionId: String) -> String {
        guard let configuration = try? configuration() else { return transactionId }
        return "\(configuration.appKey)|\(transactionId)"
    }

    /// The configuration of this queue's device now: its ``StoreKitDevice``'s, else the
    /// environment's, on any thread.
    private func configuration() throws -> StoreKitConfiguration {
        try StoreKitConfiguration.$scoped.withValue(device) { try StoreKitConfiguration.current() }
    }

    /// The emulator client of this queue's device; `SKError.clientInvalid` when there is none.
    private func client() throws -> EmulatorClient {
        try StoreKitConfiguration.$scoped.withValue(device) { try StoreKit1Call.client() }
    }

    private func restoredTransaction(_ item: EmulatorWire.DeviceTransaction, username: String?)
        -> SKPaymentTransaction
    {
        let payment = SKMutablePayment()
        payment.productIdentifier = item.productId
        payment.applicationUsername = username ?? item.appAccountToken
        let snapshot = payment.snapshot()
        let original = SKPaymentTransaction(payment: snapshot, state: .purchased)
        let payload = Self.payload(of: item.signedTransaction)
        original.transactionIdentifier = payload?.originalTransactionId ?? item.transactionId
        original.transactionDate = payload.map { Date(milliseconds: $0.originalPurchaseDate ?? $0.purchaseDate) }
        let restored = SKPaymentTransaction(payment: snapshot, state: .restored)
        restored.transactionIdentifier = item.transactionId
        restored.transactionDate = Self.purchaseDate(of: item.signedTransaction)
        restored.original = original
        return restored
    }

    /// On the main queue: tells the observers the transaction left the queue.
    private func notifyRemoved(_ transaction: SKPaymentTransaction) {
        for observer in transactionObservers {
            observer.paymentQueue(self, removedTransactions: [transaction])
        }
    }

    private func notifyUpdated(_ transactions: [SKPaymentTransaction]) {
        for observer in transactionObservers {
            observer.paymentQueue(self, updatedTransactions: transactions)
        }
    }

    private static func payload(of signed: String) -> TransactionPayload? {
        JWS(signed).flatMap { try? JSONDecoder().decode(TransactionPayload.self, from: $0.payloadData) }
    }

    private static func purchaseDate(of signed: String) -> Date? {
        payload(of: signed).map { Date(milliseconds: $0.purchaseDate) }
    }

    private func onMain(_ body: @escaping @Sendable (SKPaymentQueue) -> Void) {
        let queue = self
        if Thread.isMainThread {
            body(queue)
        } else {
            DispatchQueue.main.async { body(queue) }
        }
    }

    private func locked<Value>(_ body: () throws -> Value) rethrows -> Value {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

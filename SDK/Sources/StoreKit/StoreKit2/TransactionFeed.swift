import Foundation

/// Where ``Transaction``'s sequences come from: the emulator's device API, read once or
/// polled for ``Transaction/updates``.
package enum TransactionFeed {
    /// How often `Transaction.updates` polls the emulator.
    static let pollInterval: Duration = .milliseconds(250)

    /// A stream of what `read` answers once; empty when StoreKit is not configured or the
    /// emulator cannot be reached (Apple's sequences do not throw either).
    static func once(_ read: @escaping @Sendable (EmulatorClient) throws -> [VerificationResult<Transaction>])
        -> AsyncStream<VerificationResult<Transaction>>
    {
        AsyncStream { continuation in
            let task = Task {
                if let client = try? StoreKit2Call.client(),
                    let values = try? await StoreKit2Call.run({ try read(client) })
                {
                    for value in values { continuation.yield(value) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Every transaction of the account, verified, in purchase order.
    static func verifiedAll(_ client: EmulatorClient) throws -> [VerificationResult<Transaction>] {
        try client.allTransactions().map { try Transaction.verified($0.signedTransaction, client.configuration) }
    }

    /// `Transaction.all`: every transaction but the consumables the app finished.
    static func allTransactions(_ client: EmulatorClient) throws -> [VerificationResult<Transaction>] {
        let unfinished = Set(try client.unfinishedTransactions().map(\.transactionId))
        return try verifiedAll(client).filter {
            let transaction = $0.unsafePayloadValue
            return transaction.productType != .consumable || transaction.revocationDate != nil
                || unfinished.contains(String(transaction.id))
        }
    }

    /// `Transaction.currentEntitlements`.
    static func currentEntitlements(_ client: EmulatorClient) throws -> [VerificationResult<Transaction>] {
        let all = try verifiedAll(client)
        var latestInGroup: [String: VerificationResult<Transaction>] = [:]
        var latestNonRenewing: [String: VerificationResult<Transaction>] = [:]
        var entitled: [VerificationResult<Transaction>] = []
        for result in all {
            let transaction = result.unsafePayloadValue
            switch transaction.productType {
            case .nonConsumable where transaction.revocationDate == nil:
                entitled.append(result)
            case .autoRenewable:
                let group = transaction.subscriptionGroupID ?? transaction.productID
                if let known = latestInGroup[group], known.unsafePayloadValue.purchaseDate > transaction.purchaseDate {
                    continue
                }
                latestInGroup[group] = result
            case .nonRenewable where transaction.revocationDate == nil:
                latestNonRenewing[transaction.productID] = result
            default:
                continue
            }
        }
        let now = Date()
        entitled += latestInGroup.values.filter {
            let transaction = $0.unsafePayloadValue
            return transaction.revocationDate == nil && !transaction.isUpgraded
                && (transaction.expirationDate.map { $0 > now } ?? false)
        }
        entitled += latestNonRenewing.values
        return entitled.sorted { $0.unsafePayloadValue.purchaseDate < $1.unsafePayloadValue.purchaseDate }
    }

    /// `Transaction.updates`: polls the emulator and yields what changed since the
    /// iteration began, and the unfinished transactions once a process.
    static func updates() -> AsyncStream<VerificationResult<Transaction>> {
        AsyncStream { continuation in
            let task = Task {
                guard let client = try? StoreKit2Call.client() else {
                    continuation.finish()
                    return
                }
                var known: [UInt64: String] = [:]
                var started = false
                while !Task.isCancelled {
                    let delivered = InAppPurchases.shared
                    let launch = !started && delivered.claimLaunchDelivery()
                    if let round = try? await StoreKit2Call.run({ try UpdateRound.read(client, launch: launch) }) {
                        if !started {
                            for result in round.unfinished where !delivered.contains(result.unsafePayloadValue.id) {
                                continuation.yield(result)
                            }
                        }
                        for result in round.all {
                            let transaction = result.unsafePayloadValue
                            let state = UpdateRound.state(of: transaction)
                            if let previous = known[transaction.id] {
                                if previous != state {
                                    known[transaction.id] = state
                                    continuation.yield(result)
                                }
                            } else if !started {
                                known[transaction.id] = state
                            } else if delivered.isInFlight(transaction.productID) {
                                continue  // the app's own purchase, not answered yet: decided next round
                            } else {
                                known[transaction.id] = state
                                if !delivered.contains(transaction.id) { continuation.yield(result) }
                            }
                        }
                        started = true
                    }
                    try? await Task.sleep(for: pollInterval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// One poll of the emulator.
    struct UpdateRound: Sendable {
        var unfinished: [VerificationResult<Transaction>]
        var all: [VerificationResult<Transaction>]

        static func read(_ client: EmulatorClient, launch: Bool) throws -> UpdateRound {
            let unfinished =
                launch
                ? try client.unfinishedTransactions().map {
                    try Transaction.verified($0.signedTransaction, client.configuration)
                } : []
            return UpdateRound(unfinished: unfinished, all: try TransactionFeed.verifiedAll(client))
        }

        /// What a refund, revocation or upgrade changes in a transaction.
        static func state(of transaction: Transaction) -> String {
            "\(transaction.revocationDate?.timeIntervalSince1970 ?? 0)|\(transaction.revocationReason?.rawValue ?? -1)"
                + "|\(transaction.isUpgraded)"
        }
    }
}

/// The transactions `Product.purchase(options:)` answered in this process (they do not
/// come again on `Transaction.updates`, as on Apple's devices), the products whose
/// purchase is under way, and whether the launch's unfinished transactions went out.
///
/// `@unchecked Sendable` is safe: every stored property is read and written only while
/// `lock` is held.
package final class InAppPurchases: @unchecked Sendable {
    package static let shared = InAppPurchases()

    private let lock = NSLock()
    private var answered: Set<UInt64> = []
    private var inFlight: [String: Int] = [:]
    private var launchDelivered = false

    package func begin(_ productID: String) {
        lock.lock()
        defer { lock.unlock() }
        inFlight[productID, default: 0] += 1
    }

    package func end(_ productID: String, answered id: UInt64?) {
        lock.lock()
        defer { lock.unlock() }
        inFlight[productID, default: 1] -= 1
        if inFlight[productID] == 0 { inFlight[productID] = nil }
        if let id { answered.insert(id) }
    }

    func contains(_ id: UInt64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return answered.contains(id)
    }

    func isInFlight(_ productID: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return inFlight[productID] != nil
    }

    /// `true` the first time a process asks: the unfinished transactions go out once.
    func claimLaunchDelivery() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        defer { launchDelivered = true }
        return !launchDelivered
    }
}

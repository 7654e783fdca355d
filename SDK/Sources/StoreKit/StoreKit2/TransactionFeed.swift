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

    /// `Transaction.currentEntitlements`: each non-consumable not refunded or revoked, the
    /// latest non-revoked transaction of each non-renewing subscription, and the latest
    /// transaction of each auto-renewable subscription whose status is subscribed or in
    /// grace period (the emulator's Get All Subscription Statuses).
    static func currentEntitlements(_ client: EmulatorClient) throws -> [VerificationResult<Transaction>] {
        var entitled: [VerificationResult<Transaction>] = []
        var latestNonRenewing: [String: VerificationResult<Transaction>] = [:]
        for result in try verifiedAll(client) {
            let transaction = result.unsafePayloadValue
            guard transaction.revocationDate == nil else { continue }
            switch transaction.productType {
            case .nonConsumable: entitled.append(result)
            case .nonRenewable: latestNonRenewing[transaction.productID] = result
            default: continue
            }
        }
        entitled += latestNonRenewing.values
        for group in try client.subscriptionStatuses().data ?? [] {
            for item in group.lastTransactions ?? [] where [1, 4].contains(item.status) {
                entitled.append(try Transaction.verified(item.signedTransactionInfo, client.configuration))
            }
        }
        return entitled.sorted { $0.unsafePayloadValue.purchaseDate < $1.unsafePayloadValue.purchaseDate }
    }

    /// `Transaction.updates`: polls the emulator and yields what changed since the
    /// iteration began, and each unfinished transaction once a process: at the first
    /// iteration's start, or at a later iteration's when it became unfinished after the
    /// earlier iterations last looked (an Ask to Buy approved while the app was between
    /// listeners).
    static func updates() -> AsyncStream<VerificationResult<Transaction>> {
        // The iteration began now: what the first poll finds purchased or refunded since
        // (a purchase outside the app, a refund, made before that answer) is an update, as
        // on Apple's devices, where a listener sees everything after it began. Truncated to
        // the millisecond, as the emulator's dates.
        let began = Date(milliseconds: (Date().timeIntervalSince1970 * 1000).rounded(.down))
        return AsyncStream { continuation in
            let task = Task {
                guard let initial = try? StoreKit2Call.client() else {
                    continuation.finish()
                    return
                }
                var known: [UInt64: String] = [:]
                var started = false
                let delivered = InAppPurchases.shared
                while !Task.isCancelled {
                    // The device now: `SKTestSession.clearTransactions()` may have replaced it.
                    let client = EmulatorClient(configuration: initial.configuration.followingClears())
                    let first = !started
                    if let round = try? await StoreKit2Call.run({ try UpdateRound.read(client, first: first) }) {
                        for result in round.all {
                            let transaction = result.unsafePayloadValue
                            let state = UpdateRound.state(of: transaction)
                            if let previous = known[transaction.id] {
                                if previous != state {
                                    known[transaction.id] = state
                                    continuation.yield(result)
                                }
                            } else if !started && transaction.purchaseDate < began {
                                known[transaction.id] = state
                                if UpdateRound.state(of: transaction, asOf: began) != state {
                                    continuation.yield(result)
                                }
                            } else if delivered.isInFlight(transaction.productID, client) {
                                continue  // the app's own purchase, not answered yet: decided next round
                            } else {
                                // New: the app's own purchase came unrevoked from
                                // purchase(options:), so it is an update only if refunded or
                                // revoked since.
                                known[transaction.id] = state
                                let unseen = delivered.claimNew(transaction.id, client)
                                if unseen || state != UpdateRound.state(of: transaction, asOf: transaction.purchaseDate)
                                {
                                    continuation.yield(result)
                                }
                            }
                        }
                        // The app's own purchase under way is the purchase's to answer.
                        for result in round.unfinished
                        where !delivered.isInFlight(result.unsafePayloadValue.productID, client)
                            && delivered.claimUnfinished(result.unsafePayloadValue.id, client)
                        {
                            known[result.unsafePayloadValue.id] = UpdateRound.state(of: result.unsafePayloadValue)
                            continuation.yield(result)
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

        /// The unfinished transactions are read on an iteration's `first` round only, after
        /// the rest: one that turns up between the two reads is yielded as unfinished.
        static func read(_ client: EmulatorClient, first: Bool) throws -> UpdateRound {
            let all = try TransactionFeed.verifiedAll(client)
            let unfinished =
                first
                ? try client.unfinishedTransactions().map {
                    try Transaction.verified($0.signedTransaction, client.configuration)
                } : []
            return UpdateRound(unfinished: unfinished, all: all)
        }

        /// What a refund, revocation or upgrade changes in a transaction.
        static func state(of transaction: Transaction) -> String {
            "\(transaction.revocationDate?.timeIntervalSince1970 ?? 0)|\(transaction.revocationReason?.rawValue ?? -1)"
                + "|\(transaction.isUpgraded)"
        }

        /// ``state(of:)`` as it was at `date`: a refund or revocation after it had not happened.
        static func state(of transaction: Transaction, asOf date: Date) -> String {
            guard let revoked = transaction.revocationDate, revoked >= date else { return state(of: transaction) }
            return "0|-1|\(transaction.isUpgraded)"
        }
    }
}

/// The transactions `Product.purchase(options:)` answered or `Transaction.updates`
/// yielded in this process (neither comes on `Transaction.updates` again, as on Apple's
/// devices), and the products whose purchase is under way.
///
/// `@unchecked Sendable` is safe: every stored property is read and written only while
/// `lock` is held.
package final class InAppPurchases: @unchecked Sendable {
    package static let shared = InAppPurchases()

    private let lock = NSLock()
    /// `app key|transaction id` (``StoreKitConfiguration/appKey``): ids are unique per
    /// emulator only, and a ``StoreKitDevice`` launch remembers apart.
    private var answered: Set<String> = []
    /// The same keys, of transactions `Transaction.updates` yielded.
    private var yielded: Set<String> = []
    /// `app key|product id` → purchases under way.
    private var inFlight: [String: Int] = [:]

    package func begin(_ productID: String, _ client: EmulatorClient) {
        lock.lock()
        defer { lock.unlock() }
        inFlight["\(client.configuration.appKey)|\(productID)", default: 0] += 1
    }

    package func end(_ productID: String, answered id: UInt64?, _ client: EmulatorClient) {
        let buying = "\(client.configuration.appKey)|\(productID)"
        lock.lock()
        defer { lock.unlock() }
        inFlight[buying, default: 1] -= 1
        if inFlight[buying] == 0 { inFlight[buying] = nil }
        if let id { answered.insert(Self.key(id, client)) }
    }

    /// Whether an iteration yields transaction `id`, found unfinished at its start: only
    /// when it was neither answered nor yielded in this process.
    func claimUnfinished(_ id: UInt64, _ client: EmulatorClient) -> Bool {
        let key = Self.key(id, client)
        lock.lock()
        defer { lock.unlock() }
        return !answered.contains(key) && yielded.insert(key).inserted
    }

    /// Whether an iteration yields transaction `id`, new since it started: unless a
    /// purchase answered it (every iteration running sees a new one).
    func claimNew(_ id: UInt64, _ client: EmulatorClient) -> Bool {
        let key = Self.key(id, client)
        lock.lock()
        defer { lock.unlock() }
        yielded.insert(key)
        return !answered.contains(key)
    }

    private static func key(_ id: UInt64, _ client: EmulatorClient) -> String {
        "\(client.configuration.appKey)|\(id)"
    }

    /// Whether the app (``StoreKitConfiguration/appKey``) is buying `productID` now.
    func isInFlight(_ productID: String, _ client: EmulatorClient) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return inFlight["\(client.configuration.appKey)|\(productID)"] != nil
    }
}

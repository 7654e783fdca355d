import Foundation

extension Transaction {
    /// An asynchronous sequence of transactions.
    ///
    /// Apple: `struct Transactions` (https://developer.apple.com/documentation/storekit/transaction/transactions).
    public struct Transactions: AsyncSequence, Sendable {
        public typealias Element = VerificationResult<Transaction>

        private let stream: @Sendable () -> AsyncStream<VerificationResult<Transaction>>

        package init(_ stream: @escaping @Sendable () -> AsyncStream<VerificationResult<Transaction>>) {
            self.stream = stream
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream().makeAsyncIterator())
        }

        /// The iterator of ``Transaction/Transactions``.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<VerificationResult<Transaction>>.AsyncIterator

            public mutating func next() async -> VerificationResult<Transaction>? {
                await base.next()
            }
        }
    }

    /// A sequence that emits a transaction each time it's created or updated: purchases
    /// made outside the app (another device of the account, `SKTestSession.buyProduct`),
    /// approved Ask to Buy purchases, renewals, refunds and revocations; and, once a
    /// process, the unfinished transactions at its start. The emulator is polled every
    /// quarter second while the sequence is iterated.
    public static var updates: Transaction.Transactions {
        Transactions { TransactionFeed.updates() }
    }

    /// A sequence of every transaction for the app: the account's transactions in the
    /// device's environment, without the consumables the app finished.
    public static var all: Transaction.Transactions {
        Transactions { TransactionFeed.once { try TransactionFeed.allTransactions($0) } }
    }

    /// All transactions that are unfinished.
    public static var unfinished: Transaction.Transactions {
        Transactions {
            TransactionFeed.once { client in
                try client.unfinishedTransactions().map {
                    try Transaction.verified($0.signedTransaction, client.configuration)
                }
            }
        }
    }

    /// A sequence of the latest transactions that entitle a user to in-app purchases and
    /// subscriptions: each non-consumable and non-renewing subscription not refunded or
    /// revoked, and the latest transaction of each auto-renewable subscription group while
    /// it has not expired.
    public static var currentEntitlements: Transaction.Transactions {
        Transactions { TransactionFeed.once { try TransactionFeed.currentEntitlements($0) } }
    }

    /// Gets the user's latest transaction for a product.
    public static func latest(for productID: String) async -> VerificationResult<Transaction>? {
        guard let client = try? StoreKit2Call.client() else { return nil }
        return try? await StoreKit2Call.run {
            try TransactionFeed.verifiedAll(client).filter { $0.unsafePayloadValue.productID == productID }
                .max { $0.unsafePayloadValue.purchaseDate < $1.unsafePayloadValue.purchaseDate }
        }
    }

    /// Gets the transaction that entitles the user to a product, if any.
    public static func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>? {
        guard let client = try? StoreKit2Call.client() else { return nil }
        return try? await StoreKit2Call.run {
            try TransactionFeed.currentEntitlements(client).first { $0.unsafePayloadValue.productID == productID }
        }
    }
}

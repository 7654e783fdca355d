import PurchaseSDK

/// Transaction updates found by polling a phone's unfinished transactions, as a phone
/// learns of Ask to Buy approvals: each transaction is yielded once per stream.
public enum UnfinishedTransactionPoller {
    /// A stream that calls `unfinished` every `interval` and yields each transaction it has
    /// not yielded before; polling stops when the stream is dropped.
    public static func updates(
        every interval: Duration, unfinished: @escaping @Sendable () async throws -> [StoreTransaction]
    ) -> AsyncStream<StoreTransaction> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreTransaction.self)
        let poller = Task {
            var seen: Set<String> = []
            while !Task.isCancelled {
                for transaction in (try? await unfinished()) ?? [] where seen.insert(transaction.transactionId).inserted
                {
                    continuation.yield(transaction)
                }
                try? await Task.sleep(for: interval)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in poller.cancel() }
        return stream
    }
}

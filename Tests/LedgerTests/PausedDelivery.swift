import Foundation
import LedgerTestSupport

@testable import Ledger

/// A PostgreSQL store whose delivery of one subscription chain stops at its entitlement
/// read, its purchase written and its transaction open, until released: how the migration
/// tests hold a write in flight while a migration or a backfill runs (a hook, not a sleep).
struct PausedDelivery {
    /// The store; every other delivery on it runs through.
    let store: PostgresLedgerStore
    /// The chain whose delivery pauses.
    let chain = Fixture.transactionId()
    private let reached: AsyncStream<Void>
    private let releaseSignal: AsyncStream<Void>.Continuation

    /// A store of the database at `url`.
    init(url: String) throws {
        let (reached, reachedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let chain = self.chain
        self.reached = reached
        self.releaseSignal = releaseSignal
        store = try PostgresLedgerStore(
            url: url,
            hook: { point in
                guard point == .entitlementRead(originalTransactionId: chain) else { return }
                reachedSignal.yield()
                for await _ in release { return }
            })
    }

    /// Starts the paused chain's first purchase (for `player`, else the fixture's) and
    /// returns once it waits at its entitlement read; the task ends after ``release()``.
    func start(player: String? = nil) async -> Task<DeliveryResult, any Error> {
        let store = store
        let purchase =
            player.map { EntitlementFixture.renewal(chain, period: 0, player: $0) }
            ?? EntitlementFixture.renewal(chain, period: 0)
        let delivery = Task { try await store.deliver(purchase) }
        var reachedPoint = reached.makeAsyncIterator()
        _ = await reachedPoint.next()
        return delivery
    }

    /// Lets the paused delivery go on.
    func release() {
        releaseSignal.yield()
    }
}

import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// `delivery_days` and `delivery_latencies` (migration 18, ``LedgerSchema/deliveryDays``):
/// deliveries counted per UTC day and source, and per UTC day and bucket of their time from
/// charge to delivery, backfilled from the purchases already there and then kept by a
/// trigger, always equal to what counting the deliveries themselves gives (what the overview
/// did before).
struct DeliveryDaysTests {
    @Test(
        "delivery_days holds the count of every day and source of the deliveries, before and after migration 18",
        arguments: StoreKind.allCases)
    func countsAreTheDeliveriesCounted(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        // Half a second before a UTC midnight, so that the first deliveries straddle it.
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_800_057_599.5))
        let store = try #require(try database.open(clock: clock) as? any SQLLedgerStore)
        do {
            try await store.migrate(through: 16)
            let before = try await Self.deliverOverDays(store, clock, days: 5)
            try await store.migrate()
            #expect(try await Self.expectCountsMatch(store, since: .distantPast) == before)
            let after = try await Self.deliverOverDays(store, clock, days: 3)
            #expect(try await Self.expectCountsMatch(store, since: .distantPast) == before + after)
            let third = Date(timeIntervalSince1970: (1_800_057_600 / 86_400 + 2) * 86_400)
            let fromThird = try await Self.expectCountsMatch(store, since: third)
            #expect(fromThird > 0 && fromThird < before + after, "\(fromThird) of \(before + after)")
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// A delivery whose trigger has counted it but which has not committed when a batch of
    /// the PostgreSQL backfill starts: the batch's lock waits for it, and its recount then
    /// holds it once. (Without the lock, the batch's recount would miss the uncommitted
    /// purchase and, its upsert waiting on the delivery's row, overwrite the delivery's count
    /// after it committed: one delivery short.)
    @Test("PostgreSQL: a delivery counted but not committed when a backfill batch starts is counted once")
    func inFlightDeliveryIsCountedOnce() async throws {
        let database = try await PostgresCluster.shared.createDatabase()
        let inFlight = try PausedDelivery(url: database.url)
        let store = inFlight.store
        try await store.migrate()
        for _ in 0..<3 { _ = try await store.deliver(Fixture.delivery(source: .notification)) }
        // The backfill must repair counts, not add to them: start it from wrong ones.
        try await PostgresCluster.shared.execute(database: database.name, "UPDATE delivery_days SET deliveries = 7")
        try await PostgresCluster.shared.execute(
            database: database.name, "UPDATE delivery_latencies SET deliveries = 7")
        let paused = await inFlight.start(player: "in-flight")
        let backfill = Task {
            try await store.onConnection { connection in
                try await store.run(LedgerSchema.deliveryDays.postgresBackfills[0], on: connection)
            }
        }
        do {
            try await waitUntilTheBackfillWaits(store, lockingTable: "delivery_days, delivery_latencies")
            inFlight.release()
            _ = try await paused.value
            try await backfill.value
            #expect(try await Self.expectCountsMatch(store, since: .distantPast) == 4)
            _ = try await store.deliver(Fixture.delivery(source: .notification))
            #expect(try await Self.expectCountsMatch(store, since: .distantPast) == 5)
            try await store.close()
        } catch {
            inFlight.release()
            _ = try? await paused.value
            _ = try? await backfill.value
            try? await store.close()
            throw error
        }
    }

    /// Times from charge to delivery in milliseconds, on and beside the bounds of the buckets
    /// (the coarse histogram's among them), negative (clocks that differ), days late, and
    /// beyond the last bound.
    static let latencies: [Int64] = [
        -5_000, 0, 1, 27, 28, 29, 999, 1_000, 1_001, 1_049, 9_999, 10_000, 59_999, 60_000, 60_001, 599_999, 600_000,
        3_599_999, 3_600_000, 3 * 86_400_000 + 17, 3_599_999_999, 3_600_000_000, 4_000_000_000,
    ]

    /// Deliveries of every source over `days` days (a varying number of each per step, the
    /// clock moved 7 h 13 min between steps, across midnights), each charged one of
    /// ``latencies`` before, one of each five refunded: how many.
    private static func deliverOverDays(_ store: any LedgerStore, _ clock: ManualClock, days: Int) async throws
        -> Int
    {
        var delivered = 0
        for step in 0..<(days * 24 / 7) {
            for (index, source) in DeliverySource.allCases.enumerated() {
                for _ in 0..<((step + index) % 3) {
                    var delivery = Fixture.delivery(player: "player-\(step % 4)", source: source)
                    delivery.purchaseDate = Date(
                        ledgerMilliseconds: clock.now.ledgerMilliseconds - latencies[delivered % latencies.count])
                    _ = try await store.deliver(delivery)
                    delivered += 1
                    if delivered % 5 == 0 {
                        _ = try await store.reverse(
                            store: .appStore, transactionId: delivery.transactionId, reason: "refund")
                    }
                }
            }
            clock.advance(by: 7 * 3_600 + 13 * 60)
        }
        return delivered
    }

    /// Expects the overview's counts per day and source, and per bucket of latency, from
    /// `since`'s day on to be the deliveries of those days counted one by one; answers how
    /// many deliveries they count.
    private static func expectCountsMatch(_ store: any SQLLedgerStore, since: Date) async throws -> Int {
        let firstDay = DeliveryDayCount.day(since)
        let activity = try await store.deliveryActivity(since: since, limit: 100_000)
        let deliveries = try await store.read(
            .rows(
                LedgerStatement(
                    "SELECT purchase_date, delivered_at, source FROM purchases WHERE delivered_at >= ?",
                    [.timestamp(since.ledgerNormalized)])
            ) { row in
                (
                    purchaseDate: try row.requiredTimestamp("purchase_date"),
                    deliveredAt: try row.requiredTimestamp("delivered_at"),
                    source: try row.enumeration(DeliverySource.self, "source")
                )
            })
        var counted: [DeliveryDayCount] = []
        var latencies: [Int64: Int] = [:]
        for delivery in deliveries {
            let day = DeliveryDayCount.day(delivery.deliveredAt)
            guard day >= firstDay else { continue }
            let milliseconds = max(
                delivery.deliveredAt.ledgerMilliseconds - delivery.purchaseDate.ledgerMilliseconds, 0)
            let bucket = try #require(DeliveryLatencyCount.bucketBounds.last { $0 <= milliseconds })
            latencies[bucket, default: 0] += 1
            if let index = counted.firstIndex(where: { $0.day == day && $0.source == delivery.source }) {
                counted[index].deliveries += 1
            } else {
                counted.append(DeliveryDayCount(day: day, source: delivery.source, deliveries: 1))
            }
        }
        #expect(Set(activity.deliveryDays) == Set(counted))
        #expect(activity.deliveryDays.count == counted.count, "one row per day and source")
        #expect(activity.deliveryDays.map(\.day) == activity.deliveryDays.map(\.day).sorted(), "by day")
        #expect(
            activity.latencies
                == latencies.sorted { $0.key < $1.key }.map {
                    DeliveryLatencyCount(lowerBound: $0.key, deliveries: $0.value)
                })
        return activity.deliveryDays.reduce(0) { $0 + $1.deliveries }
    }
}

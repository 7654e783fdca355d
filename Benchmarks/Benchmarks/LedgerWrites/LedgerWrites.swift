import Benchmark
import Ledger

/// Ledger writes on SQLite (a temporary file, WAL, `synchronous=FULL`: one fsync per
/// commit), one call per iteration; the orders written or delivered are made in setup.
let benchmarks: @Sendable () -> Void = {
    let warmup = 5
    let iterations = 300
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: warmup,
        maxDuration: .seconds(5),
        maxIterations: iterations
    )

    // The plain delivery of a transaction reported with its order's app account token.
    let byOrder = LedgerBench(count: warmup + iterations, make: LedgerValues.deliveryOfCreatedOrder)
    Benchmark("deliverByOrder") { _ in
        let (store, (delivery, order)) = try byOrder.next()
        let result = try await store.deliverByOrder(delivery, appAccountToken: order.appAccountToken)
        guard case .delivered = result else { throw LedgerBenchError.notDelivered("\(result)") }
    } setup: {
        try await byOrder.setUp()
    } teardown: {
        try await byOrder.tearDown()
    }

    // The general path, for the same writes as deliverByOrder.
    let general = LedgerBench(count: warmup + iterations, make: LedgerValues.deliveryOfCreatedOrder)
    Benchmark("deliver") { _ in
        let (store, (delivery, _)) = try general.next()
        let result = try await store.deliver(delivery)
        guard case .delivered = result else { throw LedgerBenchError.notDelivered("\(result)") }
    } setup: {
        try await general.setUp()
    } teardown: {
        try await general.tearDown()
    }

    let orders = LedgerBench(count: warmup + iterations) { _ in LedgerValues.order() }
    Benchmark("createOrder") { _ in
        let (store, order) = try orders.next()
        blackHole(try await store.createOrder(order))
    } setup: {
        try await orders.setUp()
    } teardown: {
        try await orders.tearDown()
    }
}

import Foundation
import PostgresNIO

/// The scale-out ledger: PostgreSQL through a PostgresNIO connection pool. Any number of
/// stateless server instances may share one database: every operation is one
/// transaction, and races are decided by the database (unique constraints,
/// `INSERT … ON CONFLICT`, conditional updates, `FOR UPDATE SKIP LOCKED`, and a
/// transaction-scoped advisory lock per transaction id around each decision on its refund
/// state), never by locks in this process.
public final class PostgresLedgerStore: SQLLedgerStore {
    /// The connection pool.
    public let client: PostgresClient
    /// Where queries log (PostgresNIO logs at debug and trace level).
    let logger: Logger
    /// How long a message handed out by ``dueOutboxMessages(now:limit:)`` stays claimed.
    let outboxClaim: TimeInterval
    /// The store's clock.
    let clock: @Sendable () -> Date
    /// Called at the checkpoints of write transactions (tests force interleavings with it).
    let hook: LedgerHook?
    /// How a delivery by order runs.
    let orderDelivery: PostgresOrderDelivery
    /// Runs ``client`` when the store created it.
    private let runTask: Task<Void, Never>?
    /// When the store created ``client``: opened by ``runTask`` as it starts the pool.
    private let poolStart: PostgresPoolStart?

    /// Uses a client that the caller runs (`client.run()`, e.g. in a service group);
    /// `hook` is called at each ``LedgerPausePoint`` inside a write transaction (tests).
    public init(
        client: PostgresClient,
        logger: Logger = Logger(label: "storekeeper.ledger"),
        outboxClaim: TimeInterval = 60,
        clock: @escaping @Sendable () -> Date = { Date() },
        orderDelivery: PostgresOrderDelivery = .function,
        hook: LedgerHook? = nil
    ) {
        self.client = client
        self.logger = logger
        self.outboxClaim = outboxClaim
        self.clock = clock
        self.orderDelivery = orderDelivery
        self.hook = hook
        runTask = nil
        poolStart = nil
    }

    /// Creates a connection pool for `configuration` and runs it until ``close()``;
    /// `hook` is called at each ``LedgerPausePoint`` inside a write transaction (tests).
    public init(
        configuration: PostgresClient.Configuration,
        logger: Logger = Logger(label: "storekeeper.ledger"),
        outboxClaim: TimeInterval = 60,
        clock: @escaping @Sendable () -> Date = { Date() },
        orderDelivery: PostgresOrderDelivery = .function,
        hook: LedgerHook? = nil
    ) {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        self.outboxClaim = outboxClaim
        self.clock = clock
        self.orderDelivery = orderDelivery
        self.hook = hook
        let poolStart = PostgresPoolStart()
        self.poolStart = poolStart
        runTask = Task {
            poolStart.open()
            await client.run()
        }
    }

    /// Connects to the database a `postgres://` URL names and runs the pool until
    /// ``close()``; `hook` is called at each ``LedgerPausePoint`` inside a write
    /// transaction (tests).
    public convenience init(
        url: String,
        logger: Logger = Logger(label: "storekeeper.ledger"),
        outboxClaim: TimeInterval = 60,
        clock: @escaping @Sendable () -> Date = { Date() },
        hook: LedgerHook? = nil
    ) throws {
        guard case .postgres(let settings) = try StoreURL(parsing: url) else {
            throw LedgerError.invalidStoreURL(url, reason: "not a postgres:// URL")
        }
        self.init(
            configuration: settings.clientConfiguration, logger: logger, outboxClaim: outboxClaim, clock: clock,
            orderDelivery: settings.orderDelivery, hook: hook)
    }

    /// The current time at the ledger's resolution.
    var now: Date { clock().ledgerNormalized }

    var dialect: LedgerSQL.Dialect { .postgres }

    var orderDeliveryInOneStatement: Bool { orderDelivery == .function }

    /// Stops the pool, if the store started it.
    public func close() async throws {
        guard let runTask else { return }
        runTask.cancel()
        await runTask.value
    }

    /// Runs `body` in one transaction on one pooled connection, started by `begin`:
    /// committed when it returns, rolled back when it throws. A transaction the server
    /// aborts as a serialization failure or deadlock is run again (a few times).
    func transaction<Result: Sendable>(
        begin: String = "BEGIN",
        _ body: @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        var attempt = 0
        while true {
            attempt += 1
            do {
                await poolStart?.started()
                return try await leased { connection in
                    try await self.inTransaction(on: connection, begin: begin, body)
                }
            } catch let error as PSQLError {
                if error.isTransient && attempt < 5 { continue }
                throw error.ledgerError
            }
        }
    }

    /// Runs `body` in one transaction on `connection`, started by `begin`: committed when it
    /// returns, rolled back when it throws (and the connection closed when even the rollback
    /// fails: its state is unknown).
    func inTransaction<Result: Sendable>(
        on connection: PostgresConnection, begin: String = "BEGIN",
        _ body: @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await connection.run(LedgerStatement(begin), logger: logger)
        do {
            let result = try await body(connection)
            try await connection.run(LedgerStatement("COMMIT"), logger: logger)
            return result
        } catch {
            do {
                try await connection.run(LedgerStatement("ROLLBACK"), logger: logger)
            } catch {
                // The connection's state is unknown: never hand it out again.
                try? await connection.close()
            }
            throw error
        }
    }

    /// Runs `body` on one pooled connection, outside an explicit transaction (each statement
    /// commits by itself: for reads, and for writes of one statement).
    func onConnection<Result: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> Result) async throws
        -> Result
    {
        await poolStart?.started()
        do {
            return try await leased { connection in try await body(connection) }
        } catch let error as PSQLError {
            throw error.ledgerError
        }
    }

    /// Runs `body` on a connection of the pool. When the pool cannot lease one (the server
    /// cannot be reached: PostgresNIO's pool error, not a `PSQLError`), that is the storage
    /// fault ``StorageFault/unreachable``; `body`'s own errors are passed through.
    private func leased<Result: Sendable>(
        _ body: @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        do {
            return try await client.withConnection { connection in
                do {
                    return try await body(connection)
                } catch {
                    throw ConnectionBodyError(error: error)
                }
            }
        } catch let error as ConnectionBodyError {
            throw error.error
        } catch let error as PSQLError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw LedgerError.storageUnavailable(.unreachable, detail: "no connection: \(String(reflecting: error))")
        }
    }

    func read<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value {
        try await onConnection { connection in try await connection.perform(operation, hook: nil, logger: self.logger) }
    }

    /// One read-only transaction at `REPEATABLE READ`: every statement sees the same snapshot.
    func readSnapshot<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value {
        try await transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            try await connection.perform(operation, hook: nil, logger: self.logger)
        }
    }

    func write<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value {
        try await transaction { connection in
            try await connection.perform(operation, hook: self.hook, logger: self.logger)
        }
    }

    /// Runs the statement on a pooled connection like ``read(_:)``: it commits by itself.
    func writeAutocommit<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value {
        try await read(operation)
    }
}

/// An error thrown on a leased connection, told apart from the pool's own.
private struct ConnectionBodyError: Error {
    let error: any Error
}

/// One store operation's statements and the decisions between them, written once for both
/// databases: a statement to run and what to do with its rows, until a result.
///
/// GRDB runs a transaction in a synchronous closure and PostgresNIO runs one with `await`,
/// so the steps are data: ``Database/perform(_:hook:)`` (SQLite) and
/// ``PostgresConnection/perform(_:hook:logger:)`` (PostgreSQL) run the same operation, each in its
/// own transaction. Building an operation runs no SQL; running it again (a retried
/// transaction) starts from the first statement.
enum LedgerOperation<Value: Sendable>: Sendable {
    /// Nothing more to run: the result, or the error that ends the operation.
    case finished(Result<Value, any Error>)
    /// Runs the statement, then continues with the operation its rows decide.
    case statement(LedgerStatement, then: @Sendable ([any LedgerRow]) throws -> LedgerOperation<Value>)
    /// Calls the store's ``LedgerHook`` (if any) at this point of the transaction, then
    /// continues.
    case pause(LedgerPausePoint, then: @Sendable () throws -> LedgerOperation<Value>)

    /// An operation that runs nothing and returns `value`.
    static func done(_ value: Value) -> LedgerOperation<Value> {
        .finished(.success(value))
    }

    /// Runs this operation, then the one `next` makes of its result.
    func then<Next>(_ next: @escaping @Sendable (Value) throws -> LedgerOperation<Next>) -> LedgerOperation<Next> {
        switch self {
        case .finished(.success(let value)):
            do {
                return try next(value)
            } catch {
                return .finished(.failure(error))
            }
        case .finished(.failure(let error)):
            return .finished(.failure(error))
        case .statement(let statement, let rest):
            return .statement(statement) { rows in try rest(rows).then(next) }
        case .pause(let point, let rest):
            return .pause(point) { try rest().then(next) }
        }
    }

    /// Passes the pause point `point` (see ``LedgerHook``), then returns `value`.
    static func pause(at point: LedgerPausePoint, returning value: Value) -> LedgerOperation<Value> {
        .pause(point) { .done(value) }
    }

    /// Runs this operation and transforms its result.
    func map<Next>(_ transform: @escaping @Sendable (Value) throws -> Next) -> LedgerOperation<Next> {
        then { .done(try transform($0)) }
    }

    /// Runs `step` for each element in order, each with the value the previous one returned.
    static func reduce<Element: Sendable>(
        _ elements: [Element],
        into initial: Value,
        _ step: @escaping @Sendable (Value, Element) throws -> LedgerOperation<Value>
    ) -> LedgerOperation<Value> {
        elements.reduce(.done(initial)) { operation, element in operation.then { try step($0, element) } }
    }

    /// Runs `statement` and decodes every row it returns.
    static func rows<Element>(
        _ statement: LedgerStatement,
        _ decode: @escaping @Sendable (any LedgerRow) throws -> Element
    ) -> LedgerOperation<Value> where Value == [Element] {
        .statement(statement) { rows in .done(try rows.map(decode)) }
    }

    /// Runs `statement` and decodes its first row; `nil` when it returns none.
    static func first<Element>(
        _ statement: LedgerStatement,
        _ decode: @escaping @Sendable (any LedgerRow) throws -> Element
    ) -> LedgerOperation<Value> where Value == Element? {
        .statement(statement) { rows in .done(try rows.first.map(decode)) }
    }

    /// Runs `statement`, ignoring any rows.
    static func execute(_ statement: LedgerStatement) -> LedgerOperation<Value> where Value == Void {
        .statement(statement) { _ in .done(()) }
    }
}

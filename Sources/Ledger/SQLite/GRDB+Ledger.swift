import Foundation
import GRDB

extension Database {
    /// Runs an operation's statements one after the other, in the caller's transaction,
    /// calling `hook` at its pause points.
    ///
    /// GRDB runs the transaction synchronously on its writer's queue (not a thread of
    /// Swift's cooperative pool), so the queue waits for the asynchronous hook; nothing else
    /// runs on it meanwhile, as nothing else may write while the transaction is open.
    func perform<Value>(_ operation: LedgerOperation<Value>, hook: LedgerHook? = nil) throws -> Value {
        var operation = operation
        while true {
            switch operation {
            case .finished(let result): return try result.get()
            case .statement(let statement, let next): operation = try next(try rows(statement))
            case .pause(let point, let next):
                if let hook {
                    let returned = DispatchSemaphore(value: 0)
                    Task {
                        await hook(point)
                        returned.signal()
                    }
                    returned.wait()
                }
                operation = try next()
            }
        }
    }
}

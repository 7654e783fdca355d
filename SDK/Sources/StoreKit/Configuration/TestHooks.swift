import Foundation

/// The process's StoreKit Test settings that act on the app's own calls rather than on
/// the emulator: `SKTestSession.failTransactionsEnabled` (with `failureError`) and
/// `interruptedPurchasesEnabled`.
///
/// `@unchecked Sendable` is safe: every stored property is read and written only while
/// `lock` is held.
package final class TestHooks: @unchecked Sendable {
    package static let shared = TestHooks()

    /// A purchase the settings stop.
    package enum SimulatedFailure: Sendable {
        /// `failTransactionsEnabled`: the purchase fails with this code.
        case failed(SKError.Code)
        /// `interruptedPurchasesEnabled`: the purchase waits for
        /// `resolveIssueForTransaction(identifier:)`, under this test identifier.
        case interrupted(Int)

        /// What `Product.purchase(options:)` answers: it throws `StoreKitError.systemError`
        /// with the `SKError` when failing, `.pending` when interrupted.
        package func storeKit2Result() throws -> Product.PurchaseResult {
            switch self {
            case .failed(let code): throw StoreKitError.systemError(SKError(code))
            case .interrupted: return .pending
            }
        }
    }

    /// An interrupted purchase, waiting for its issue to be resolved.
    package struct InterruptedPurchase: Sendable, Hashable {
        package var identifier: Int
        package var productID: String
        package var date: Date
    }

    private let lock = NSLock()
    private var failing: SKError.Code?
    private var interrupting = false
    private var interrupted: [InterruptedPurchase] = []
    private var nextIdentifier = 1

    /// Sets `failTransactionsEnabled` (`code` when on, `nil` when off).
    package func setFailing(_ code: SKError.Code?) {
        lock.lock()
        defer { lock.unlock() }
        failing = code
    }

    /// Sets `interruptedPurchasesEnabled`.
    package func setInterrupting(_ on: Bool) {
        lock.lock()
        defer { lock.unlock() }
        interrupting = on
    }

    /// What stops a purchase of `productID` now; an interrupted purchase is recorded.
    package func purchaseFailure(for productID: String) -> SimulatedFailure? {
        lock.lock()
        defer { lock.unlock() }
        if let failing { return .failed(failing) }
        guard interrupting else { return nil }
        let purchase = InterruptedPurchase(identifier: nextIdentifier, productID: productID, date: Date())
        nextIdentifier += 1
        interrupted.append(purchase)
        return .interrupted(purchase.identifier)
    }

    /// The interrupted purchases not resolved yet.
    package var interruptedPurchases: [InterruptedPurchase] {
        lock.lock()
        defer { lock.unlock() }
        return interrupted
    }

    /// Removes and answers the interrupted purchase `identifier`.
    package func resolve(_ identifier: Int) -> InterruptedPurchase? {
        lock.lock()
        defer { lock.unlock() }
        guard let index = interrupted.firstIndex(where: { $0.identifier == identifier }) else { return nil }
        return interrupted.remove(at: index)
    }

    /// Forgets every setting and interrupted purchase.
    package func reset() {
        lock.lock()
        defer { lock.unlock() }
        failing = nil
        interrupting = false
        interrupted = []
    }
}

import Foundation
import PurchaseSDK

/// Sends promoted purchases to every current subscriber; each ``subscribe()`` gets its own
/// stream, so a new pipeline (after a simulated crash) listens afresh.
///
/// `@unchecked Sendable`: the only mutable state, `subscribers` and `nextId`, is read and
/// written under `lock` and nowhere else.
public final class PromotionBroadcaster: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [Int: AsyncStream<PromotedPurchase>.Continuation] = [:]
    private var nextId = 0

    /// Creates a broadcaster with no subscribers.
    public init() {}

    /// A stream of the purchases promoted from now on.
    public func subscribe() -> AsyncStream<PromotedPurchase> {
        let (stream, continuation) = AsyncStream.makeStream(of: PromotedPurchase.self)
        let id = lock.withLock {
            nextId += 1
            subscribers[nextId] = continuation
            return nextId
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    /// Sends `promotion` to every subscriber.
    public func send(_ promotion: PromotedPurchase) {
        for continuation in lock.withLock({ Array(subscribers.values) }) { continuation.yield(promotion) }
    }

    private func remove(_ id: Int) {
        lock.withLock { _ = subscribers.removeValue(forKey: id) }
    }
}

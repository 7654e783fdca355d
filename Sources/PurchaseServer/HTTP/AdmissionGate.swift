import Synchronization

/// The count of requests in flight and its bound (``LoadSettings/maximumRequestsInFlight``):
/// a request enters if the count is below the bound, and leaves when it is answered.
final class AdmissionGate: Sendable {
    /// The most requests in flight at once.
    let limit: Int
    private let count = Mutex(0)

    /// A gate that lets `limit` requests in at once.
    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a place for a request: `false`, and nothing taken, when all are taken.
    func enter() -> Bool {
        count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives back the place ``enter()`` took.
    func leave() {
        count.withLock { $0 -= 1 }
    }

    /// The requests in flight now.
    var inFlight: Int {
        count.withLock { $0 }
    }
}

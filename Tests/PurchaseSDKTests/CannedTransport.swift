import Foundation
import PurchaseSDK
import Synchronization

/// A transport that answers every request with the one canned response, or throws as
/// when the device is offline; it remembers the requests.
final class CannedTransport: NetworkTransport {
    private let state = Mutex<(answer: NetworkResponse?, requests: [NetworkRequest])>((nil, []))

    /// Answers `status` with `json` from now on.
    func answer(_ status: Int, _ json: String) {
        state.withLock { $0.answer = NetworkResponse(status: status, body: Data(json.utf8)) }
    }

    /// No answer from now on.
    func goOffline() {
        state.withLock { $0.answer = nil }
    }

    /// The paths requested so far.
    var paths: [String] { state.withLock { $0.requests.map(\.url.path) } }

    /// The requests sent to `path` so far.
    func requests(to path: String) -> [NetworkRequest] {
        state.withLock { $0.requests.filter { $0.url.path == path } }
    }

    func send(_ request: NetworkRequest) async throws -> NetworkResponse {
        let answer = state.withLock { state in
            state.requests.append(request)
            return state.answer
        }
        guard let answer else { throw URLError(.notConnectedToInternet) }
        return answer
    }
}

/// A pipeline clock the test moves by hand; waits return at once.
final class ManualClock: PipelineClock {
    private let date: Mutex<Date>

    init(_ date: Date) {
        self.date = Mutex(date)
    }

    var now: Date { date.withLock { $0 } }

    /// Moves the clock forward.
    func advance(by seconds: TimeInterval) {
        date.withLock { $0 += seconds }
    }

    func sleep(for duration: Duration) async throws {}
}

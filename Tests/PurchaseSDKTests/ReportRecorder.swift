import Foundation
import PurchaseSDK
import Synchronization

/// A transport to the purchase server that answers `POST /v1/purchases` itself, as a server
/// that delivered the purchase would, and keeps each report's body; every other request
/// goes on to `base`.
final class ReportRecorder: NetworkTransport {
    private let base: any NetworkTransport
    private let reports = Mutex<[Data]>([])

    init(wrapping base: any NetworkTransport) {
        self.base = base
    }

    /// The bodies of the reports sent so far, each a JSON object.
    func bodies() throws -> [[String: Any]] {
        try reports.withLock { $0 }.map { data in
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw FixtureError("a report that is not a JSON object")
            }
            return object
        }
    }

    func send(_ request: NetworkRequest) async throws -> NetworkResponse {
        guard request.method == "POST", request.url.path == "/v1/purchases" else { return try await base.send(request) }
        reports.withLock { $0.append(request.body ?? Data()) }
        let order = try (JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any])?["orderId"]
        let answer: [String: Any] = [
            "status": "delivered", "orderId": order ?? NSNull(), "grants": [:] as [String: Int64],
            "balances": [:] as [String: Int64], "flags": [] as [String],
        ]
        return NetworkResponse(status: 200, body: try JSONSerialization.data(withJSONObject: answer))
    }
}

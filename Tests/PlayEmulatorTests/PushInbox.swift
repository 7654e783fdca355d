import Foundation
import Hummingbird
import PlayModel
import Synchronization
import Testing

/// A push endpoint at `POST /push` on the test's own server: it keeps every push it gets
/// and answers the statuses a test scripts (then 204).
final class PushInbox: Sendable {
    /// One push as the endpoint got it.
    struct Push: Sendable {
        var authorization: String?
        var envelope: PubSubPushEnvelope

        /// The envelope's notification, decoded from base64 `message.data`.
        func notification() throws -> DeveloperNotification {
            let data = try #require(Data(base64Encoded: envelope.message.data))
            return try JSONDecoder().decode(DeveloperNotification.self, from: data)
        }
    }

    private let state = Mutex<(pushes: [Push], statuses: [Int])>(([], []))

    /// An inbox that answers `statuses` to its first pushes, in order, then 204.
    init(answering statuses: [Int] = []) {
        state.withLock { $0.statuses = statuses }
    }

    /// The pushes so far, in arrival order.
    var pushes: [Push] { state.withLock { $0.pushes } }

    /// Every push's notification, in arrival order.
    func notifications() throws -> [DeveloperNotification] { try pushes.map { try $0.notification() } }

    /// The URL of the endpoint on port `port`.
    static func url(port: Int) -> URL { URL(string: "http://127.0.0.1:\(port)/push")! }

    func addRoute(to router: Router<BasicRequestContext>) {
        router.post("push") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            let envelope = try JSONDecoder().decode(PubSubPushEnvelope.self, from: Data(body.readableBytesView))
            let status = self.state.withLock { state in
                state.pushes.append(Push(authorization: request.headers[.authorization], envelope: envelope))
                return state.statuses.isEmpty ? 204 : state.statuses.removeFirst()
            }
            return Response(status: HTTPResponse.Status(code: status))
        }
    }
}

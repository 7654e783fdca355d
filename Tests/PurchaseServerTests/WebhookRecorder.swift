import Foundation
import HTTPRouting
import Hummingbird

/// A stand-in for the game server's webhook at `/test/webhook`: records what it receives
/// and fails the first `failuresBeforeSuccess` posts with 500.
actor WebhookRecorder {
    struct Post: Sendable {
        var body: Data
        var signature: String?
        var idempotencyKey: String?
    }

    private(set) var posts: [Post] = []
    private var failuresLeft = 0

    func failNext(_ count: Int) {
        failuresLeft = count
    }

    nonisolated func addRoute(to router: Router<StoreKeeperRequestContext>) {
        router.post("test/webhook") { request, _ -> Response in
            var request = request
            let body = Data(try await request.collectBody(upTo: 1 << 20).readableBytesView)
            let post = Post(
                body: body,
                signature: Self.header("X-StoreKeeper-Signature", of: request),
                idempotencyKey: Self.header("Idempotency-Key", of: request))
            return Response(status: await self.record(post) ? .ok : .internalServerError)
        }
    }

    private static func header(_ name: String, of request: Request) -> String? {
        request.headers.first { $0.name.rawName.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    private func record(_ post: Post) -> Bool {
        posts.append(post)
        if failuresLeft > 0 {
            failuresLeft -= 1
            return false
        }
        return true
    }
}

import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The game server's webhook as the multi-instance test runs it, on a loopback port of its
/// own: acknowledges every `POST /webhook` and records its `Idempotency-Key`.
final class WebhookReceiver: Sendable {
    /// Every key received, one entry per post, in arrival order.
    actor Keys {
        private(set) var received: [String] = []

        func record(_ key: String) {
            received.append(key)
        }
    }

    let keys = Keys()
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Starts the receiver on a free port.
    init() async throws {
        var logger = Logger(label: "webhook-receiver")
        logger.logLevel = .critical
        let router = Router()
        router.post("webhook") { [keys] request, _ -> Response in
            let key = request.headers.first { $0.name.rawName.lowercased() == "idempotency-key" }?.value
            await keys.record(key ?? "")
            return Response(status: .ok)
        }
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger)
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        self.group = group
        task = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        port = await iterator.next() ?? 0
        guard port > 0 else { throw WebhookReceiverError() }
    }

    /// The webhook URL the servers post to.
    var url: String { "http://127.0.0.1:\(port)/webhook" }

    /// Stops the receiver.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }

    struct WebhookReceiverError: Error {}
}

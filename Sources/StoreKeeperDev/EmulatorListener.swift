import AppStoreEmulator
import Foundation
import HTTPRouting
import Hummingbird
import Logging
import ServiceLifecycle

/// The emulator's HTTP routes on a loopback port of their own, which stays up while the
/// purchase server's instances restart, as Apple and Google do while a game's backend is
/// down: the server's calls to "Apple" and "Google Play" go there, and so do the simulated
/// phones' StoreKit and Play store clients. A test's extra routes are served there too, so
/// that a stand-in the server reaches at `http://apple.dev/…` (a webhook) is found.
///
/// Were they served on a restarting instance's port, a call the server makes during its own
/// graceful shutdown could go out on a pooled connection to that closing port, which is
/// never answered: the shutdown would wait for the call's read timeout.
struct EmulatorListener: Sendable {
    /// Where the emulator answers.
    let url: URL
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Serves `emulator` and `extraRoutes` on a free loopback port.
    init(
        emulator: AppStoreEmulator, extraRoutes: @Sendable (Router<StoreKeeperRequestContext>) -> Void, logger: Logger
    ) async throws {
        let router = Router(context: StoreKeeperRequestContext.self)
        emulator.addRoutes(to: router)
        extraRoutes(router)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            }, logger: logger)
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        task = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        self.group = group
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            throw DevStackError("the emulator did not start on 127.0.0.1")
        }
        url = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Stops serving.
    func stop() async {
        await group.triggerGracefulShutdown()
        try? await task.value
    }
}

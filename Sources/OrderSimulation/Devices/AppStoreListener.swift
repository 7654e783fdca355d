import AppStoreEmulator
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The emulator's HTTP routes on a loopback port of their own: the App Store the phones'
/// StoreKit (``PhoneStore/storeKit``) talks to, and the Google Play the Android phones'
/// Play store client talks to, which stay up while the purchase server restarts, as Apple
/// and Google do while a game's backend is down.
struct AppStoreListener: Sendable {
    /// Where the emulator answers.
    let url: URL
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Serves `emulator` on a free loopback port.
    init(emulator: AppStoreEmulator) async throws {
        let router = Router()
        emulator.addRoutes(to: router)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "storekeeper-simulation-appstore")
        logger.logLevel = .critical
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
            throw SimulationError("the App Store emulator did not start on 127.0.0.1")
        }
        url = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Stops serving.
    func stop() async {
        await group.triggerGracefulShutdown()
        try? await task.value
    }
}

import AppStoreEmulator
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import PlayEmulator
import PurchaseServer

/// `storekeeper emulator`: runs the offline App Store over HTTP.
struct EmulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulator",
        abstract: "Run the offline App Store emulator (Apple's wire protocol plus a device API).",
        discussion: "See docs/emulator.md for the endpoints. State, CA and API key persist in --data-dir."
    )

    @Option(help: "The port to listen on (127.0.0.1).")
    var port: Int = 9090

    @Option(help: "Where the CA, the Server API key and the state live.")
    var dataDir: String = "./emulator-data"

    @Option(help: "Multiplies Apple's notification retry schedule (1, 12, 24, 48, 72 hours).")
    var timeScale: Double = 1

    @Option(
        help: """
            Multiplies subscription periods, grace periods and billing retry: above 0, at most 1 \
            (0.00011574 makes a 30-day month last 5 minutes); the emulator renews subscriptions on this clock.
            """)
    var subscriptionTimeScale: Double = 1

    @Option(help: "A JSON catalog file ({\"products\": [...]}); the sample catalog otherwise.")
    var catalog: String?

    @Option(help: "The app's bundle id.")
    var bundleId: String = "com.example.game"

    @Option(help: "Where to POST App Store Server Notifications V2.")
    var notificationURL: String?

    @Option(help: "Where to push Google Play's Real-time developer notifications (Pub/Sub push).")
    var playPushURL: String?

    @Option(help: "The audience of the pushes' OIDC token; the push URL by default.")
    var playPushAudience: String?

    @Option(
        help:
            "The service account email of the pushes' OIDC token; storekeeper-push@storekeeper-emulator.iam.gserviceaccount.com by default."
    )
    var playPushEmail: String?

    @Option(help: "The app-specific shared secret verifyReceipt checks.")
    var sharedSecret: String?

    @Option(
        help: """
            How long an idle connection to the notification and push URLs is kept, in seconds: below the \
            receiving server's idle timeout (half of StoreKeeper's load.idleTimeoutSeconds, 30, by default).
            """)
    var notificationIdleSeconds: Double = LoadSettings().idleTimeoutSeconds / 2

    @Option(help: "The address to bind.")
    var hostname: String = "127.0.0.1"

    @Option(
        help: """
            The base URL clients reach the emulator at, for the absolute URLs it hands out (the Play \
            service account's token_uri); http://HOSTNAME:PORT by default, each request's Host header when \
            HOSTNAME is a wildcard address or PORT is 0.
            """)
    var publicURL: String?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard timeScale > 0, timeScale.isFinite else { throw ValidationError("--time-scale must be a positive number") }
        guard subscriptionTimeScale > 0, subscriptionTimeScale <= 1 else {
            throw ValidationError("--subscription-time-scale must be above 0 and at most 1")
        }
        if let publicURL, URL(string: publicURL)?.scheme == nil {
            throw ValidationError("--public-url must be an absolute URL")
        }
        if let notificationURL, URL(string: notificationURL)?.scheme == nil {
            throw ValidationError("--notification-url must be an absolute URL")
        }
        guard notificationIdleSeconds.isFinite, notificationIdleSeconds > 0, notificationIdleSeconds <= 3_600 else {
            throw ValidationError("--notification-idle-seconds must be above 0 and at most 3600")
        }
        if let problem = playPush.problem { throw ValidationError("--play-push: \(problem)") }
    }

    /// ``publicURL``, or `http://HOSTNAME:PORT` when that names one address and port;
    /// `nil` (each request's `Host`) otherwise.
    var baseURL: URL? {
        if let publicURL { return URL(string: publicURL) }
        guard port != 0, !["0.0.0.0", "::", "[::]"].contains(hostname) else { return nil }
        return URL(string: "http://\(hostname.contains(":") ? "[\(hostname)]" : hostname):\(port)")
    }

    /// The Play push options as a configuration.
    var playPush: PlayPushConfiguration {
        PlayPushConfiguration(
            url: playPushURL.flatMap(URL.init(string:)), audience: playPushAudience, serviceAccountEmail: playPushEmail)
    }

    func run() async throws {
        let notificationClient = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPNotificationTransport.configuration(
                keepingIdleConnectionsFor: .milliseconds(Int64((notificationIdleSeconds * 1_000).rounded()))))
        do {
            try await serve(postingWith: notificationClient)
        } catch {
            try? await notificationClient.shutdown()
            throw error
        }
        try await notificationClient.shutdown()
    }

    /// Runs the emulator until the process is told to stop, posting its notifications and
    /// pushes with `notificationClient`.
    private func serve(postingWith notificationClient: HTTPClient) async throws {
        let emulator = try await AppStoreEmulator(
            configuration: EmulatorConfiguration(
                dataDirectory: URL(fileURLWithPath: dataDir),
                bundleId: bundleId,
                catalog: try catalog.map { try EmulatorCatalog.load(from: URL(fileURLWithPath: $0)) } ?? .sample,
                notificationURL: notificationURL.flatMap(URL.init(string:)),
                sharedSecret: sharedSecret,
                timeScale: timeScale,
                subscriptionTimeScale: subscriptionTimeScale,
                baseURL: baseURL,
                playPush: playPush
            ),
            httpClient: notificationClient
        )
        let router = Router()
        emulator.addRoutes(to: router)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(hostname, port: port), serverName: "storekeeper-emulator")
        )
        print("App Store emulator on http://\(hostname):\(port) (data in \(dataDir))")
        print("  verifyReceipt:  POST http://\(hostname):\(port)/sandbox/verifyReceipt")
        print("  device API:     http://\(hostname):\(port)/emulator/v1/devices/{deviceId}/purchases")
        print("  trust roots:    GET  http://\(hostname):\(port)/emulator/v1/roots")
        print("  Google Play:    GET  http://\(hostname):\(port)/emulator/v1/play/service-account")
        print("  Play push keys: GET  http://\(hostname):\(port)/emulator/v1/play/certs")
        try await app.runService()
        await emulator.shutdown()
    }
}

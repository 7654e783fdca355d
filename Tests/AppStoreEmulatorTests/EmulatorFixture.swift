import AppStoreAPI
import AppStoreEmulator
import AppStoreModel
import EmulatorTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// An emulator on a fresh data directory, removed when the test ends.
struct EmulatorFixture {
    let directory: URL
    let emulator: AppStoreEmulator

    /// An emulator on `directory` (a fresh one by default). Its receipt chain is the one
    /// ``TestEmulatorDirectory`` shares, unless `ownReceiptChain` asks for a chain of its
    /// own (an emulator that stands for another CA).
    init(
        timeScale: Double = 0.00001, sharedSecret: String? = nil, directory: URL? = nil,
        catalog: EmulatorCatalog = .sample, subscriptionTimeScale: Double = 1, ownReceiptChain: Bool = false
    ) async throws {
        if let directory {
            self.directory = directory
            try TestEmulatorDirectory.provide(directory)
        } else if ownReceiptChain {
            self.directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "emulator-\(UUID().uuidString)")
        } else {
            self.directory = try TestEmulatorDirectory.make("emulator")
        }
        emulator = try await AppStoreEmulator(
            configuration: EmulatorConfiguration(
                dataDirectory: self.directory,
                catalog: catalog,
                sharedSecret: sharedSecret,
                timeScale: timeScale,
                subscriptionTimeScale: subscriptionTimeScale,
                runsSubscriptionClock: false
            )
        )
    }

    /// Runs `body` with the emulator served over HTTP on a free loopback port.
    func live(_ body: @Sendable (_ baseURL: URL, _ client: any TestClientProtocol) async throws -> Void) async throws {
        let router = Router()
        emulator.addRoutes(to: router)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(URL(string: "http://127.0.0.1:\(port)")!, client)
        }
    }

    /// A Server API client for the emulator at `baseURL` in `environment`.
    func serverAPI(_ baseURL: URL, _ environment: String = "sandbox") -> AppStoreServerAPIClient {
        AppStoreServerAPIClient(
            baseURL: baseURL.appendingPathComponent(environment),
            key: emulator.identity.apiKey,
            transport: AsyncHTTPClientTransport()
        )
    }

    /// The sample catalog, a yearly VIP at level 1 (a crossgrade from vip.premium) and a
    /// second subscription group (`club.monthly`, group 20000002).
    static let twoGroupCatalog = EmulatorCatalog(
        products: EmulatorCatalog.sample.products + [
            EmulatorProduct(
                productId: "vip.annual", type: .autoRenewable, price: 49_990, subscriptionGroupIdentifier: "20000001",
                subscriptionGroupLevel: 1, subscriptionPeriodSeconds: 365 * 86_400),
            EmulatorProduct(
                productId: "club.monthly", type: .autoRenewable, price: 2_990, subscriptionGroupIdentifier: "20000002",
                subscriptionGroupLevel: 1, subscriptionPeriodSeconds: 30 * 86_400),
        ])

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// JSON helpers for raw HTTP tests.
enum JSON {
    static func body(_ value: some Encodable) -> ByteBuffer {
        ByteBuffer(bytes: try! JSONEncoder().encode(value))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ buffer: ByteBuffer?) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer.map { Array($0.readableBytesView) } ?? []))
    }

    static func object(_ buffer: ByteBuffer?) throws -> [String: Any] {
        let data = Data(buffer.map { Array($0.readableBytesView) } ?? [])
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

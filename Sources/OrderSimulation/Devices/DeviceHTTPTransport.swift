import AppStoreAPI
import AsyncHTTPClient
import PurchaseSDK
import PurchaseServer

/// The devices' way to the purchase server: one AsyncHTTPClient pool for every simulated
/// device (a process's `URLSession` queues hundreds of devices behind a few connections).
struct DeviceHTTPTransport: NetworkTransport {
    let transport: AsyncHTTPClientTransport

    /// Sends through `client`, each request within `timeout` seconds.
    init(client: HTTPClient, timeout: Double = 10) {
        transport = AsyncHTTPClientTransport(client: client, timeout: timeout)
    }

    func send(_ request: NetworkRequest) async throws -> NetworkResponse {
        let response = try await transport.send(
            HTTPRequestData(
                method: HTTPRequestMethod(rawValue: request.method), url: request.url, headers: request.headers,
                body: request.body))
        return NetworkResponse(status: response.status, body: response.body, headers: response.headers)
    }

    /// A client for a run: a pool wide enough for every device, a short connect timeout so a
    /// device notices a restarting server at once, and idle connections closed before the
    /// server (which runs with the default load settings) closes them.
    static func makeClient(connections: Int) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            timeout: .init(connect: .seconds(2), read: .seconds(10)),
            connectionPool: .init(
                idleTimeout: LoadSettings().clientIdleTimeout, concurrentHTTP1ConnectionsPerHostSoftLimit: connections))
        configuration.decompression = .disabled
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }
}

import AsyncHTTPClient
import Synchronization

/// Each simulated phone's own connections to the purchase server: an AsyncHTTPClient per
/// phone, as every real phone has a network stack of its own.
///
/// One client shared by every phone was one connection pool per server address, and
/// AsyncHTTPClient's pool backs off after each failed connection attempt (100 ms growing
/// by 1.25× per failure, up to a minute). While a restarting server refused connections,
/// hundreds of phones' attempts added up to waits of tens of seconds for every phone at
/// once, long after the server was back; a real fleet's phones each back off only from
/// their own failures.
final class PhoneConnections: Sendable {
    private let clients = Mutex<[HTTPClient]>([])

    /// A new phone's client, shut down by ``shutdown()``.
    func client() -> HTTPClient {
        let client = DeviceHTTPTransport.makeClient(connections: 4)
        clients.withLock { $0.append(client) }
        return client
    }

    /// Shuts down every client made: once, when the run's phones are done.
    func shutdown() async {
        for client in clients.withLock({ $0 }) { try? await client.shutdown() }
    }
}

import Hummingbird
import HummingbirdCore

extension LoadSettings {
    /// Hummingbird's HTTP/1 server closing a connection that goes ``idleTimeoutSeconds``
    /// without a complete request part (HTTP/1's idle timeout: a request line that never
    /// ends is not a part, so a slowloris connection is closed too).
    public var httpServer: HTTPServerBuilder {
        .http1(configuration: HTTP1Channel.Configuration(idleTimeout: .nanoseconds(Int64(idleTimeoutSeconds * 1e9))))
    }

    /// The application configuration binding `address` that accepts at most
    /// `connectionLimit` connections at once (``maximumConnections`` when `nil`; see
    /// ``connectionLimit(descriptorLimit:)``); beyond it new connections wait in the
    /// listening socket's backlog.
    ///
    /// - Parameters:
    ///   - address: where to listen.
    ///   - serverName: the `Server` header.
    ///   - connectionLimit: the most open connections, when fewer than ``maximumConnections``.
    public func applicationConfiguration(
        address: BindAddress, serverName: String, connectionLimit: Int? = nil
    ) -> ApplicationConfiguration {
        ApplicationConfiguration(
            address: address, serverName: serverName,
            availableConnectionsDelegate: MaximumAvailableConnections(connectionLimit ?? maximumConnections))
    }
}

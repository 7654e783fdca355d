import Hummingbird
import HummingbirdCore
import NIOCore

extension LoadSettings {
    /// Hummingbird's HTTP/1 server closing a connection that goes ``idleTimeoutSeconds``
    /// without a complete request part (HTTP/1's idle timeout: a request line that never
    /// ends is not a part, so a slowloris connection is closed too).
    public var httpServer: HTTPServerBuilder {
        .http1(configuration: HTTP1Channel.Configuration(idleTimeout: .nanoseconds(Int64(idleTimeoutSeconds * 1e9))))
    }

    /// How long a client of this server should keep an idle pooled connection: half
    /// ``idleTimeoutSeconds`` (half the default when it is out of range, where the server
    /// refuses to start). The client then closes it first; a client that keeps it longer may
    /// send a request at the moment the server closes the connection, and that request fails
    /// unanswered (AsyncHTTPClient keeps one 60 s by default, `HTTPClient.shared` 600 s).
    public var clientIdleTimeout: TimeAmount {
        let seconds =
            Self.idleTimeoutSecondsRange.contains(idleTimeoutSeconds) ? idleTimeoutSeconds : Self().idleTimeoutSeconds
        return .milliseconds(Int64((seconds * 500).rounded()))
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

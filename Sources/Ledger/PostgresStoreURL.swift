import Foundation
import PostgresNIO

/// Where a PostgreSQL ledger lives, parsed from
/// `postgres://user:password@host:port/database?option=value`.
///
/// Options: `sslmode` (`disable`, `prefer` — the default, as in libpq —, `require`,
/// `verify-full`), `host` (a Unix socket directory, overriding the URL's host),
/// `max_connections` (pool size, default 20), `connect_timeout` (seconds).
public struct PostgresStoreURL: Sendable, Hashable {
    /// How to use TLS, with libpq's names.
    public enum SSLMode: String, Sendable, Hashable, CaseIterable {
        /// Never.
        case disable
        /// When the server offers it, without checking its certificate.
        case prefer
        /// Always, without checking the server's certificate.
        case require
        /// Always, checking the server's certificate and name.
        case verifyFull = "verify-full"
    }

    /// The server's host name or address (TCP).
    public var host: String
    /// The server's port.
    public var port: Int
    /// A Unix socket directory to connect through instead of TCP.
    public var unixSocketDirectory: String?
    /// The user name.
    public var username: String
    /// The password, if any.
    public var password: String?
    /// The database name.
    public var database: String
    /// How to use TLS.
    public var sslMode: SSLMode
    /// The pool's connection limit.
    public var maximumConnections: Int?
    /// How long to wait for a connection to be established.
    public var connectTimeout: Duration?
    /// How a delivery by order runs (`order_delivery`; default ``PostgresOrderDelivery/function``).
    public var orderDelivery: PostgresOrderDelivery = .function

    /// Parses a `postgres://` or `postgresql://` URL.
    public init(parsing url: String) throws {
        func invalid(_ reason: String) -> LedgerError { .invalidStoreURL(url, reason: reason) }
        guard let components = URLComponents(string: url),
            let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql"
        else { throw invalid("not a postgres:// URL") }
        guard let username = components.user, !username.isEmpty else { throw invalid("no user name") }
        self.username = username
        password = components.password
        host = components.host ?? ""
        port = components.port ?? 5432
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.isEmpty, !path.contains("/") else { throw invalid("no database name in the path") }
        database = path
        sslMode = .prefer
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else {
                    throw invalid("sslmode must be one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                sslMode = mode
            case "host":
                guard value.hasPrefix("/") else { throw invalid("host option must be a socket directory") }
                unixSocketDirectory = value
            case "max_connections":
                guard let count = Int(value), (1...10_000).contains(count) else {
                    throw invalid("max_connections must be 1 to 10000")
                }
                maximumConnections = count
            case "connect_timeout":
                guard let seconds = Int(value), (1...86_400).contains(seconds) else {
                    throw invalid("connect_timeout must be 1 to 86400 seconds")
                }
                connectTimeout = .seconds(seconds)
            case "order_delivery":
                guard let mode = PostgresOrderDelivery(rawValue: value) else {
                    throw invalid("order_delivery must be function or statements")
                }
                orderDelivery = mode
            default:
                throw invalid("unknown option \(item.name)")
            }
        }
        guard unixSocketDirectory != nil || !host.isEmpty else { throw invalid("no host") }
    }

    /// The PostgresNIO client configuration for this URL.
    public var clientConfiguration: PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let unixSocketDirectory {
            configuration = PostgresClient.Configuration(
                unixSocketPath: "\(unixSocketDirectory)/.s.PGSQL.\(port)",
                username: username,
                password: password,
                database: database
            )
        } else {
            configuration = PostgresClient.Configuration(
                host: host,
                port: port,
                username: username,
                password: password,
                database: database,
                tls: tls
            )
        }
        if let maximumConnections { configuration.options.maximumConnections = maximumConnections }
        if let connectTimeout { configuration.options.connectTimeout = connectTimeout }
        return configuration
    }

    private var tls: PostgresClient.Configuration.TLS {
        var unchecked = TLSConfiguration.makeClientConfiguration()
        unchecked.certificateVerification = .none
        switch sslMode {
        case .disable: return .disable
        case .prefer: return .prefer(unchecked)
        case .require: return .require(unchecked)
        case .verifyFull: return .require(.makeClientConfiguration())
        }
    }
}

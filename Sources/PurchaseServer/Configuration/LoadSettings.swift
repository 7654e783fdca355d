import Foundation

/// How much the server takes at once and how long it keeps a connection that sends nothing:
/// the limits that hold a launch-day burst and slow or idle clients (docs/server.md, "Load
/// and connection limits").
///
/// A request beyond ``maximumRequestsInFlight`` is answered at once with 503 `overloaded`
/// and `Retry-After: ` ``retryAfterSeconds``, before anything of it is read or done. A
/// connection that has sent no complete part of a request (head or body chunk) for
/// ``idleTimeoutSeconds`` is closed, so a client that sends a request line byte by byte
/// (slowloris) holds its connection that long at most. Beyond ``maximumConnections`` open
/// connections new ones wait in the kernel's accept queue until one closes.
public struct LoadSettings: Codable, Hashable, Sendable {
    /// The most player and notification requests (`/v1` outside `/v1/admin`) the server
    /// works on at once; the next one is shed.
    public var maximumRequestsInFlight: Int
    /// The `Retry-After` of a shed request, in seconds.
    public var retryAfterSeconds: Int
    /// How long (seconds) a connection may stay without a complete request part before it
    /// is closed: an idle keep-alive connection, or a request that stalls.
    public var idleTimeoutSeconds: Double
    /// The most connections open at once; each holds a file descriptor.
    public var maximumConnections: Int
    /// How long (seconds) a request body may take to arrive whole once its handler reads it;
    /// then the request is answered 408 `body_timeout` and its place is given back.
    public var bodyTimeoutSeconds: Double

    /// The default bound on requests in flight: 8 for each of the 20 connections of the
    /// PostgreSQL pool's default size (SQLite's group commit takes as many). Beyond it a
    /// request would only wait in a queue and push the latency of every accepted one up.
    public static let defaultMaximumRequestsInFlight = 160

    /// Creates settings: ``defaultMaximumRequestsInFlight`` in flight, `Retry-After: 1`,
    /// connections closed after 30 seconds without a request part, at most 4,096 open, a
    /// body whole within 30 seconds.
    public init(
        maximumRequestsInFlight: Int = defaultMaximumRequestsInFlight,
        retryAfterSeconds: Int = 1,
        idleTimeoutSeconds: Double = 30,
        maximumConnections: Int = 4_096,
        bodyTimeoutSeconds: Double = 30
    ) {
        self.maximumRequestsInFlight = maximumRequestsInFlight
        self.retryAfterSeconds = retryAfterSeconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.maximumConnections = maximumConnections
        self.bodyTimeoutSeconds = bodyTimeoutSeconds
    }

    /// Decodes settings; absent keys keep the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = LoadSettings()
        maximumRequestsInFlight =
            try container.decodeIfPresent(Int.self, forKey: .maximumRequestsInFlight)
            ?? defaults.maximumRequestsInFlight
        retryAfterSeconds =
            try container.decodeIfPresent(Int.self, forKey: .retryAfterSeconds) ?? defaults.retryAfterSeconds
        idleTimeoutSeconds =
            try container.decodeIfPresent(Double.self, forKey: .idleTimeoutSeconds) ?? defaults.idleTimeoutSeconds
        maximumConnections =
            try container.decodeIfPresent(Int.self, forKey: .maximumConnections) ?? defaults.maximumConnections
        bodyTimeoutSeconds =
            try container.decodeIfPresent(Double.self, forKey: .bodyTimeoutSeconds) ?? defaults.bodyTimeoutSeconds
    }

    /// The environment variables that set these limits, and what each sets.
    static let environmentVariables: [(name: String, meaning: String)] = [
        ("STOREKEEPER_MAX_REQUESTS_IN_FLIGHT", "load.maximumRequestsInFlight"),
        ("STOREKEEPER_OVERLOAD_RETRY_AFTER_SECONDS", "load.retryAfterSeconds"),
        ("STOREKEEPER_IDLE_TIMEOUT_SECONDS", "load.idleTimeoutSeconds"),
        ("STOREKEEPER_MAX_CONNECTIONS", "load.maximumConnections"),
        ("STOREKEEPER_BODY_TIMEOUT_SECONDS", "load.bodyTimeoutSeconds"),
    ]

    /// Applies the variables of ``environmentVariables`` that `value` returns.
    ///
    /// - Throws: ``ConfigurationError`` naming the first variable that is not a number.
    mutating func applyEnvironment(_ value: (String) -> String?) throws {
        func number<T: LosslessStringConvertible>(_ name: String, _ type: T.Type) throws -> T? {
            guard let text = value(name) else { return nil }
            guard let number = T(text) else { throw ConfigurationError("\(name) must be a number, not \(text)") }
            return number
        }
        if let limit = try number("STOREKEEPER_MAX_REQUESTS_IN_FLIGHT", Int.self) {
            maximumRequestsInFlight = limit
        }
        if let seconds = try number("STOREKEEPER_OVERLOAD_RETRY_AFTER_SECONDS", Int.self) {
            retryAfterSeconds = seconds
        }
        if let seconds = try number("STOREKEEPER_IDLE_TIMEOUT_SECONDS", Double.self) {
            idleTimeoutSeconds = seconds
        }
        if let limit = try number("STOREKEEPER_MAX_CONNECTIONS", Int.self) { maximumConnections = limit }
        if let seconds = try number("STOREKEEPER_BODY_TIMEOUT_SECONDS", Double.self) { bodyTimeoutSeconds = seconds }
    }

    /// The connections the server can hold with `descriptorLimit` file descriptors (the
    /// process's `RLIMIT_NOFILE`): ``maximumConnections``, or fewer when the limit does not
    /// leave ``reservedDescriptors`` for the database, the log and Apple's connections.
    public func connectionLimit(descriptorLimit: Int) -> Int {
        max(1, min(maximumConnections, descriptorLimit - Self.reservedDescriptors))
    }

    /// The idle timeouts the server accepts, in seconds.
    static let idleTimeoutSecondsRange: ClosedRange<Double> = 0.1...3_600

    /// The descriptors kept for everything but client connections.
    public static let reservedDescriptors = 256

    /// Problems that stop the server from starting, each a sentence.
    var validationProblems: [String] {
        var problems: [String] = []
        if !(1...100_000).contains(maximumRequestsInFlight) {
            problems.append("load.maximumRequestsInFlight must be from 1 to 100000")
        }
        if !(1...3_600).contains(retryAfterSeconds) { problems.append("load.retryAfterSeconds must be from 1 to 3600") }
        if !Self.idleTimeoutSecondsRange.contains(idleTimeoutSeconds) {
            problems.append("load.idleTimeoutSeconds must be from 0.1 to 3600")
        }
        if !(1...1_000_000).contains(maximumConnections) {
            problems.append("load.maximumConnections must be from 1 to 1000000")
        }
        if !(bodyTimeoutSeconds >= 0.1 && bodyTimeoutSeconds <= 3_600) {
            problems.append("load.bodyTimeoutSeconds must be from 0.1 to 3600")
        }
        return problems
    }
}

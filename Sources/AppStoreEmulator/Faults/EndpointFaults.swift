import Foundation

/// Faults injected into one endpoint (or a group of them).
public struct EndpointFaults: Codable, Hashable, Sendable {
    /// Added to every answer, in milliseconds.
    public var latencyMs: Int?
    /// The share of requests (0…1) answered with a retryable error.
    public var errorRate: Double?
    /// Windows during which the endpoint is down (HTTP 503).
    public var outages: [OutageWindow]?

    /// Creates endpoint faults.
    public init(latencyMs: Int? = nil, errorRate: Double? = nil, outages: [OutageWindow]? = nil) {
        self.latencyMs = latencyMs
        self.errorRate = errorRate
        self.outages = outages
    }
}

/// A span of time during which an endpoint is unreachable.
public struct OutageWindow: Codable, Hashable, Sendable {
    /// When the outage starts (ISO 8601 in JSON).
    public var start: Date
    /// When it ends.
    public var end: Date

    /// Creates a window.
    public init(start: Date, end: Date) {
        self.start = start
        self.end = end
    }
}

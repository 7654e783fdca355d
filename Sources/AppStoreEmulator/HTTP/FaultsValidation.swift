import Foundation

/// The body of `PUT /emulator/v1/faults` read as plain numbers, checked before it becomes
/// ``EmulatorFaults``: only known endpoint keys, rates in 0…1, delays in 0…10 minutes.
/// (``NotificationFaults`` would clamp a rate silently and cannot hold an absurd delay.)
struct FaultsValidation: Decodable {
    /// The endpoint keys the fault injector knows: operations, the `serverAPI` group, and
    /// `ocsp`, the OCSP responder.
    static let endpointKeys: Set<String> = Set(
        ["verifyReceipt", "serverAPI", "ocsp"] + ServerAPIOperation.allCases.map(\.rawValue))
    /// The longest latency or delay accepted, in milliseconds.
    static let maximumDelayMs = 600_000.0

    struct Endpoint: Decodable {
        var latencyMs: Int?
        var errorRate: Double?
        var outages: [Outage]?
    }

    struct Outage: Decodable {
        var start: Date
        var end: Date
    }

    struct Notifications: Decodable {
        var dropRate: Double?
        var duplicateRate: Double?
        var reorderRate: Double?
        var maxReorderDelayMs: Double?
        var delayRate: Double?
        var delayMs: Double?
        var seed: UInt64?
    }

    var seed: UInt64?
    var endpoints: [String: Endpoint]?
    var notifications: Notifications?

    /// Reads `body` and checks it; `malformed_body` or `invalid_faults` (400) otherwise.
    static func check(_ body: Data) throws(EmulatorError) {
        let faults: FaultsValidation
        do {
            faults = try JSONDecoder.iso8601.decode(FaultsValidation.self, from: body)
        } catch {
            throw EmulatorError("malformed_body", "the body is not a valid EmulatorFaults: \(error)")
        }
        for (key, endpoint) in faults.endpoints ?? [:] {
            guard endpointKeys.contains(key) else {
                throw invalid("unknown endpoint \(key); use one of \(endpointKeys.sorted().joined(separator: ", "))")
            }
            try delay(endpoint.latencyMs.map(Double.init), "\(key).latencyMs")
            try rate(endpoint.errorRate, "\(key).errorRate")
        }
        if let notifications = faults.notifications {
            try rate(notifications.dropRate, "notifications.dropRate")
            try rate(notifications.duplicateRate, "notifications.duplicateRate")
            try rate(notifications.reorderRate, "notifications.reorderRate")
            try rate(notifications.delayRate, "notifications.delayRate")
            try delay(notifications.maxReorderDelayMs, "notifications.maxReorderDelayMs")
            try delay(notifications.delayMs, "notifications.delayMs")
        }
    }

    private static func rate(_ value: Double?, _ name: String) throws(EmulatorError) {
        if let value, !(0...1).contains(value) { throw invalid("\(name) must be 0 to 1") }
    }

    private static func delay(_ value: Double?, _ name: String) throws(EmulatorError) {
        if let value, !(0...maximumDelayMs).contains(value) {
            throw invalid("\(name) must be 0 to \(Int(maximumDelayMs)) ms")
        }
    }

    private static func invalid(_ message: String) -> EmulatorError {
        EmulatorError("invalid_faults", message)
    }
}

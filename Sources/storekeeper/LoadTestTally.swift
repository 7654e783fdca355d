/// The steps of one purchase that a load-test worker times.
enum LoadTestPhase: String, CaseIterable, Codable, Sendable {
    /// Order, charge and report together (a delivered purchase, start to finish).
    case path
    /// `POST /v1/orders`.
    case order
    /// `POST /emulator/v1/devices/{deviceId}/purchases`: the emulated App Store charging.
    case charge
    /// `POST /v1/purchases`: the report that delivers.
    case report
    /// `POST /emulator/v1/devices/{deviceId}/transactions/{id}/finish`, after delivery
    /// (what the app does next; not part of ``path``).
    case finish
}

/// What one load-test worker saw: latency samples per phase, deliveries and errors.
///
/// Each worker fills its own tally; the command merges them when all are done, so no
/// state is shared while the load runs.
struct LoadTestTally: Sendable {
    /// Successful step durations, per phase (a failed step records no sample).
    var samples: [LoadTestPhase: [Duration]] = [:]
    /// Reports answered `delivered`.
    var delivered = 0
    /// Reports answered `already_delivered` (the notification delivered first).
    var alreadyDelivered = 0
    /// Errors by kind, e.g. `report: rejected invalid_signature` or `order: HTTP 503`.
    var errors: [String: Int] = [:]

    /// Deliveries of either kind.
    var deliveries: Int { delivered + alreadyDelivered }

    /// All errors, whatever their kind.
    var errorCount: Int { errors.values.reduce(0, +) }

    /// Records a successful step.
    mutating func record(_ phase: LoadTestPhase, _ duration: Duration) {
        samples[phase, default: []].append(duration)
    }

    /// Counts one error of `kind`.
    mutating func fail(_ kind: String) {
        errors[kind, default: 0] += 1
    }

    /// Adds another worker's tally to this one.
    mutating func merge(_ other: LoadTestTally) {
        samples.merge(other.samples) { $0 + $1 }
        delivered += other.delivered
        alreadyDelivered += other.alreadyDelivered
        errors.merge(other.errors) { $0 + $1 }
    }
}

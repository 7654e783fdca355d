import Foundation

/// Decides, deterministically for a seed, which requests fail.
struct FaultInjector: Sendable {
    private(set) var faults = EmulatorFaults()
    /// Operation → how many of its requests were failed (outage or error) so far.
    private(set) var injected: [String: Int] = [:]
    private var generator = SplitMix64(seed: 0)

    /// Replaces the faults and reseeds.
    mutating func update(_ faults: EmulatorFaults) {
        self.faults = faults
        generator = SplitMix64(seed: faults.seed ?? UInt64.random(in: .min ... .max))
    }

    /// The latency to add and the decision for one request to `operation` at `now`.
    mutating func decide(_ operation: String, group: String? = nil, now: Date) -> (
        latency: Duration, decision: FaultDecision
    ) {
        guard let endpoint = faults.faults(for: operation, group: group) else { return (.zero, .proceed) }
        let latency = Duration.milliseconds(endpoint.latencyMs ?? 0)
        if endpoint.outages?.contains(where: { $0.start <= now && now < $0.end }) == true {
            injected[operation, default: 0] += 1
            return (latency, .outage)
        }
        if let rate = endpoint.errorRate, rate > 0, Double.random(in: 0..<1, using: &generator) < rate {
            injected[operation, default: 0] += 1
            return (latency, .error)
        }
        return (latency, .proceed)
    }

    /// A random element, drawn from the seeded generator.
    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &generator)]
    }
}

/// Faults the emulator injects into notification delivery, to exercise a server's
/// handling of what the real App Store may do.
///
/// Every decision is a pure function of ``seed``, the notification's UUID and the attempt
/// number, so a run is reproducible whatever order notifications interleave in.
///
/// In JSON: `{"dropRate": 0.1, "duplicateRate": 0.05, "reorderRate": 0.2,
/// "maxReorderDelayMs": 2000, "delayRate": 0.1, "delayMs": 5000, "seed": 42}`, every key
/// optional (absent means no fault, and seed 0).
public struct NotificationFaults: Codable, Hashable, Sendable {
    /// The share of notifications (0...1) never sent at all: no attempt is made. The
    /// emulator's notification history still holds them, as Apple's does.
    public var dropRate: Double
    /// The share of attempts (0...1) whose body is POSTed twice.
    public var duplicateRate: Double
    /// The share of attempts (0...1) held back by a random extra delay, up to
    /// ``maxReorderDelay``, so later notifications overtake them.
    public var reorderRate: Double
    /// The longest extra delay of a reordered attempt, in real time (not scaled).
    public var maxReorderDelay: Duration
    /// The share of attempts (0...1) held back by the whole of ``delay``, long enough for the
    /// app's own report to arrive first.
    public var delayRate: Double
    /// How long a delayed attempt is held back, in real time (not scaled).
    public var delay: Duration
    /// The seed of the decisions.
    public var seed: UInt64

    /// Creates faults; rates are clamped to 0...1 (NaN counts as 0) and a negative delay
    /// counts as zero.
    public init(
        dropRate: Double = 0, duplicateRate: Double = 0, reorderRate: Double = 0,
        maxReorderDelay: Duration = .zero, delayRate: Double = 0, delay: Duration = .zero, seed: UInt64 = 0
    ) {
        self.dropRate = clamped(dropRate)
        self.duplicateRate = clamped(duplicateRate)
        self.reorderRate = clamped(reorderRate)
        self.maxReorderDelay = max(maxReorderDelay, .zero)
        self.delayRate = clamped(delayRate)
        self.delay = max(delay, .zero)
        self.seed = seed
    }

    /// No faults: every notification is sent once per attempt, at once.
    public static let none = NotificationFaults()

    /// Whether the notification `uuid` is dropped (never sent).
    public func drops(uuid: String) -> Bool {
        var generator = generator(uuid: uuid, attemptNumber: 0, salt: 1)
        return unit(&generator) < dropRate
    }

    /// The faults applied to attempt `attemptNumber` (1-based) of notification `uuid`.
    public func attemptFaults(uuid: String, attemptNumber: Int) -> NotificationAttemptFaults {
        var duplicates = generator(uuid: uuid, attemptNumber: attemptNumber, salt: 2)
        var reorders = generator(uuid: uuid, attemptNumber: attemptNumber, salt: 3)
        var delays = generator(uuid: uuid, attemptNumber: attemptNumber, salt: 4)
        let duplicate = unit(&duplicates) < duplicateRate
        var extraDelay = Duration.zero
        if unit(&reorders) < reorderRate {
            extraDelay = maxReorderDelay * unit(&reorders)
        }
        let delayed = unit(&delays) < delayRate
        if delayed {
            extraDelay += delay
        }
        return NotificationAttemptFaults(duplicate: duplicate, extraDelay: extraDelay, delayed: delayed)
    }

    private enum CodingKeys: String, CodingKey {
        case dropRate, duplicateRate, reorderRate, maxReorderDelayMs, delayRate, delayMs, seed
    }

    /// The longest delay JSON may give, in milliseconds: `Int64.max` (about 292 million
    /// years), so that a delay, and a reordering delay plus a delay, stay a `Duration` a
    /// task can sleep for.
    public static let maximumDelayMilliseconds = Double(Int64.max)

    /// Decodes faults from JSON; absent keys mean no fault (and seed 0).
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the key when `maxReorderDelayMs` or
    ///   `delayMs` is longer than ``maximumDelayMilliseconds``. A negative one counts as
    ///   zero.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func milliseconds(_ key: CodingKeys) throws -> Duration {
            let value = try container.decodeIfPresent(Double.self, forKey: key) ?? 0
            guard value.isFinite, value <= Self.maximumDelayMilliseconds else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription:
                        "\(key.stringValue) must be at most \(Self.maximumDelayMilliseconds) milliseconds, not \(value)"
                )
            }
            // A negative delay counts as zero (see `init`); converted as zero, it cannot overflow.
            return .milliseconds(max(value, 0))
        }
        self.init(
            dropRate: try container.decodeIfPresent(Double.self, forKey: .dropRate) ?? 0,
            duplicateRate: try container.decodeIfPresent(Double.self, forKey: .duplicateRate) ?? 0,
            reorderRate: try container.decodeIfPresent(Double.self, forKey: .reorderRate) ?? 0,
            maxReorderDelay: try milliseconds(.maxReorderDelayMs),
            delayRate: try container.decodeIfPresent(Double.self, forKey: .delayRate) ?? 0,
            delay: try milliseconds(.delayMs),
            seed: try container.decodeIfPresent(UInt64.self, forKey: .seed) ?? 0
        )
    }

    /// Encodes the faults as JSON, the delay in milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(dropRate, forKey: .dropRate)
        try container.encode(duplicateRate, forKey: .duplicateRate)
        try container.encode(reorderRate, forKey: .reorderRate)
        try container.encode(maxReorderDelay.milliseconds, forKey: .maxReorderDelayMs)
        try container.encode(delayRate, forKey: .delayRate)
        try container.encode(delay.milliseconds, forKey: .delayMs)
        try container.encode(seed, forKey: .seed)
    }

    private func generator(uuid: String, attemptNumber: Int, salt: UInt64) -> SplitMix64 {
        // FNV-1a: a stable hash (Swift's `Hasher` is randomly seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in uuid.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        var mixer = SplitMix64(seed: seed ^ hash)
        let base = mixer.next()
        return SplitMix64(seed: base ^ (UInt64(truncatingIfNeeded: attemptNumber) << 8 | salt))
    }
}

extension Duration {
    /// The duration in milliseconds, fractions kept.
    fileprivate var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

private func clamped(_ rate: Double) -> Double {
    guard !rate.isNaN else { return 0 }
    return min(max(rate, 0), 1)
}

/// A uniform value in 0..<1 from the top 53 bits of the next output.
private func unit(_ generator: inout SplitMix64) -> Double {
    Double(generator.next() >> 11) * 0x1p-53
}

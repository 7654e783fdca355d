import AppStoreEmulator

/// A seeded source of fault decisions: the same seed rolls the same faults.
struct FaultDice: Sendable {
    let rates: FaultRates
    private var generator: SplitMix64

    /// Dice for `rates`, seeded by `seed` mixed with `salt` (a device number, a purpose).
    init(rates: FaultRates, seed: UInt64, salt: UInt64) {
        self.rates = rates
        var mixer = SplitMix64(seed: seed ^ (salt &* 0x9E37_79B9_7F4A_7C15))
        generator = SplitMix64(seed: mixer.next())
    }

    /// Whether `kind` strikes this time, at its rate.
    mutating func strikes(_ kind: FaultKind) -> Bool {
        chance(rates[kind])
    }

    /// Whether an event of probability `probability` happens.
    mutating func chance(_ probability: Double) -> Bool {
        probability > 0 && Double.random(in: 0..<1, using: &generator) < probability
    }

    /// A uniformly chosen element.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[Int.random(in: 0..<elements.count, using: &generator)]
    }

    /// A uniform integer in `range`.
    mutating func integer(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &generator)
    }
}

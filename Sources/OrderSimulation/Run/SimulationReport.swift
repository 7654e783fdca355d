/// What a simulation found: the oracle's counts, the faults actually injected, and the
/// history of every offending transaction.
public struct SimulationReport: Encodable, Hashable, Sendable {
    /// One transaction the oracle found wrong, with what happened to it.
    public struct Offender: Codable, Hashable, Sendable {
        /// How it is wrong.
        public var kind: IntegrityViolation.Kind
        /// The transaction.
        public var transactionId: String
        /// What the oracle saw.
        public var detail: String
        /// What the devices did with it, then what the server recorded.
        public var history: [String]
    }

    /// The oracle's counts; in JSON, at the top level beside the fields below.
    public var counts: IntegrityCounts
    /// Charges whose refund Apple reversed.
    public var reversed: Int
    /// Fault kind → how many were injected.
    public var faults: [FaultKind: Int]
    /// The seed, to replay the run.
    public var seed: UInt64
    /// The run's wall-clock duration.
    public var elapsedSeconds: Double
    /// Purchases the players started (promoted ones included).
    public var purchases: Int
    /// Players (the attacker not counted).
    public var players: Int
    /// How the devices' purchase calls ended (`delivered`, `pending`, `cancelled`,
    /// `failed:REASON`, `killed`); promoted purchases are not counted here.
    public var outcomes: [String: Int]
    /// Every offending transaction.
    public var offenders: [Offender]

    /// Whether nothing was lost, duplicated, misdelivered or forged.
    public var holds: Bool { counts.holds }

    private enum CodingKeys: String, CodingKey {
        case reversed, faults, seed, elapsedSeconds, purchases, players, outcomes, offenders
    }
}

extension SimulationReport {
    /// Writes one flat JSON object: the counts' fields beside the report's own.
    public func encode(to encoder: any Encoder) throws {
        try counts.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reversed, forKey: .reversed)
        try container.encode(faults, forKey: .faults)
        try container.encode(seed, forKey: .seed)
        try container.encode(elapsedSeconds, forKey: .elapsedSeconds)
        try container.encode(purchases, forKey: .purchases)
        try container.encode(players, forKey: .players)
        try container.encode(outcomes, forKey: .outcomes)
        try container.encode(offenders, forKey: .offenders)
    }
}

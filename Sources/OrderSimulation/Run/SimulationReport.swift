/// What a simulation found: the oracle's counts, the faults actually injected, and the
/// history of every offending transaction.
public struct SimulationReport: Codable, Hashable, Sendable {
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

    /// Charges Apple made.
    public var charged: Int
    /// Charges the ledger delivered.
    public var delivered: Int
    /// Standing charges whose goods the ledger does not hold.
    public var lost: Int
    /// Charges whose goods the ledger holds more of than paid for.
    public var duplicates: Int
    /// Charges delivered to a player who did not pay.
    public var wrongPlayer: Int
    /// Deliveries with no charge behind them.
    public var forgedDelivered: Int
    /// Charges refunded at the end.
    public var refunded: Int
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
    public var holds: Bool { lost == 0 && duplicates == 0 && wrongPlayer == 0 && forgedDelivered == 0 }
}

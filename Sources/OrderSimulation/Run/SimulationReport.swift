/// What a simulation found: the oracle's counts, the faults actually injected, the history
/// of every offending transaction, and the purchases still in flight.
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

    /// How the run ended.
    public enum Verdict: String, Codable, Hashable, Sendable {
        /// Nothing offended and nothing stayed in flight.
        case pass
        /// Something was lost, duplicated, misdelivered or forged, Google refunded a purchase
        /// for want of acknowledgement, or an entitlement was missing, held by the wrong
        /// player or kept past Apple's word.
        case fail
        /// Nothing offended, but some purchase was still in flight after every round of
        /// waiting: the run proves nothing about it.
        case inconclusive
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
    /// How the wall clock divided among the run's phases.
    public var phaseSeconds = SimulationPhases()
    /// Purchases the players started (promoted ones included).
    public var purchases: Int
    /// Players (the attacker not counted).
    public var players: Int
    /// How the devices' purchase calls ended (`delivered`, `pending`, `cancelled`,
    /// `failed:REASON`, `killed`); promoted purchases are not counted here.
    public var outcomes: [String: Int]
    /// Every offending transaction.
    public var offenders: [Offender]
    /// Every purchase still in flight when the run was judged for the last time, with what
    /// it waited for.
    public var inFlight: [InFlightPurchase] = []
    /// The purchases in flight at the first judgement that the extra rounds saw settle:
    /// what a run judged at the first deadline would have counted wrong.
    public var resolvedInFlight: [InFlightPurchase] = []
    /// Whether devices took turns (``SimulationConfiguration/serial``).
    public var serial = false
    /// How many extra rounds of quiescing the run waited for purchases in flight.
    public var extraQuiesceRounds = 0
    /// A digest of every purchase call's outcome in the order the calls ended: two runs of
    /// one seed with the same digest ended every purchase call the same way, in the same order.
    public var outcomeDigest = ""
    /// How many server instances shared the database.
    public var instances = 1
    /// What the phones bought through (``SimulationConfiguration/phoneStore``).
    public var phoneStore = PhoneStore.emulator
    /// Instance → how many times the faults restarted it.
    public var restartsByInstance: [Int] = []
    /// The file holding each offending and in-flight purchase's full history, when written.
    public var historyFile: String?
    /// The subscription players' figures: purchases, renewals, the entitlement oracle's
    /// counts and violations, the entitlement lag.
    public var subscriptions = SubscriptionFigures()
    /// The Android players' figures: Google Play charges, pending purchases, refunds and
    /// Google's refunds for want of acknowledgement.
    public var android = AndroidFigures()

    /// Whether nothing was lost, duplicated, misdelivered or forged, and the right player
    /// was entitled to every paid period and nobody past Apple's word.
    public var holds: Bool { counts.holds && subscriptions.holds }

    /// How the run ended: a violation fails it; otherwise anything in flight makes it
    /// inconclusive.
    public var verdict: Verdict {
        if !holds { return .fail }
        return inFlight.isEmpty ? .pass : .inconclusive
    }

    private enum CodingKeys: String, CodingKey {
        case reversed, faults, seed, elapsedSeconds, phaseSeconds, purchases, players, outcomes, offenders,
            inFlightPurchases
        case resolvedInFlight
        case serial, extraQuiesceRounds, outcomeDigest, historyFile, verdict, instances, restartsByInstance
        case subscriptions, android
    }
}

extension SimulationReport {
    /// Writes one flat JSON object: the counts' fields (`inFlight` among them) beside the
    /// report's own (the in-flight purchases as `inFlightPurchases`).
    public func encode(to encoder: any Encoder) throws {
        try counts.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reversed, forKey: .reversed)
        try container.encode(faults, forKey: .faults)
        try container.encode(seed, forKey: .seed)
        try container.encode(elapsedSeconds, forKey: .elapsedSeconds)
        try container.encode(phaseSeconds, forKey: .phaseSeconds)
        try container.encode(purchases, forKey: .purchases)
        try container.encode(players, forKey: .players)
        try container.encode(outcomes, forKey: .outcomes)
        try container.encode(offenders, forKey: .offenders)
        try container.encode(inFlight, forKey: .inFlightPurchases)
        try container.encode(resolvedInFlight, forKey: .resolvedInFlight)
        try container.encode(serial, forKey: .serial)
        try container.encode(extraQuiesceRounds, forKey: .extraQuiesceRounds)
        try container.encode(outcomeDigest, forKey: .outcomeDigest)
        try container.encodeIfPresent(historyFile, forKey: .historyFile)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(instances, forKey: .instances)
        try container.encode(restartsByInstance, forKey: .restartsByInstance)
        try container.encode(subscriptions, forKey: .subscriptions)
        try container.encode(android, forKey: .android)
    }
}

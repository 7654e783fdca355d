import AppStoreEmulator
import Ledger

/// Everything known about one offending or in-flight purchase, from every side: enough to
/// diagnose it from one occurrence.
public struct OffenderHistory: Codable, Hashable, Sendable {
    /// Apple's transaction, or `nil` for a purchase not charged yet.
    public var transactionId: String?
    /// `lost`, `duplicate`, `wrongPlayer`, `forgedDelivered`, `inFlight`, or
    /// `resolvedInFlight` (in flight at the first judgement, settled in an extra round).
    public var verdict: String
    /// What the oracle saw.
    public var detail: String
    /// For an in-flight purchase, what it was waiting for.
    public var waits: [PurchaseWait]
    /// Apple's charge, as the emulator holds it at the end.
    public var charge: EmulatedTransaction?
    /// The simulation's own notes: who paid, kills, refunds, the parent's decisions.
    public var notes: [String]
    /// Every state the devices' journals wrote for it, in order.
    public var journal: [JournalTransition]
    /// Every event the server recorded for the transaction.
    public var serverEvents: [HistoryEvent]
    /// Every notification Apple issued about it, with its delivery attempts.
    public var notifications: [NotificationHistory]
}

/// One notification Apple issued, with its delivery attempts.
public struct NotificationHistory: Codable, Hashable, Sendable {
    /// `notificationUUID`.
    public var uuid: String
    /// `notificationType` and subtype, as `TYPE` or `TYPE/SUBTYPE`.
    public var type: String
    /// Apple's `signedDate`, milliseconds since 1970.
    public var signedDate: Int64
    /// Whether the run's faults dropped it (never sent; only the history has it).
    public var droppedByFault: Bool
    /// Every delivery attempt, oldest first.
    public var attempts: [EmulatedNotification.Attempt]
}

/// The file a run writes for diagnosis: the run's own facts, then each offender's history.
public struct SimulationHistory: Codable, Hashable, Sendable {
    /// The seed.
    public var seed: UInt64
    /// Whether devices took turns.
    public var serial: Bool
    /// Players and purchases.
    public var players: Int
    /// Purchases the players started.
    public var purchases: Int
    /// Fault kind → injected.
    public var faults: [String: Int]
    /// Every purchase call's outcome as `DEVICE OUTCOME`, in the order the calls ended:
    /// what two runs of one seed are compared on.
    public var outcomeSequence: [String]
    /// Every reconciler pass the run made.
    public var reconcilerPasses: [ReconcilerPass]
    /// Each offending or in-flight purchase.
    public var offenders: [OffenderHistory]
    /// Each chain the entitlement oracle found wrong, with its history.
    public var entitlementViolations: [EntitlementViolation] = []
}

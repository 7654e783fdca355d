/// What ``IntegrityOracle`` concluded.
public struct IntegrityVerdict: Codable, Hashable, Sendable {
    /// The counts.
    public var counts: IntegrityCounts
    /// Every offending transaction.
    public var violations: [IntegrityViolation]
    /// Purchases still in flight: not counted in ``violations`` (see
    /// ``separatingInFlight(waits:uncharged:)``).
    public var inFlight: [InFlightPurchase] = []

    /// Whether nothing was lost, duplicated, misdelivered or forged.
    public var holds: Bool { violations.isEmpty }

    /// Whether nothing was still in flight, so that ``holds`` is the final word.
    public var isConclusive: Bool { inFlight.isEmpty }

    /// The verdict with every violation whose transaction still waits for something moved
    /// to ``inFlight``, and each of `uncharged` (purchases with work left but no charge)
    /// added there.
    ///
    /// A violation is final only when nothing is left that could still change the ledger
    /// for its transaction: the device finished it (or lost its journal), every
    /// notification about it was delivered or ran out of attempts, and the reconciler's
    /// last pass read Apple's history to the end. `waits` holds, per transaction id, what
    /// is still left.
    public func separatingInFlight(
        waits: [String: [PurchaseWait]], uncharged: [InFlightPurchase] = []
    ) -> IntegrityVerdict {
        var verdict = self
        verdict.violations = []
        verdict.inFlight = inFlight
        for violation in violations {
            // Google's refund of an unacknowledged purchase is final, whatever is left.
            guard violation.kind != .refundedUnacknowledged, let left = waits[violation.transactionId], !left.isEmpty
            else {
                verdict.violations.append(violation)
                continue
            }
            verdict.inFlight.append(
                InFlightPurchase(
                    transactionId: violation.transactionId, wouldBe: violation.kind, detail: violation.detail,
                    waits: left))
            switch violation.kind {
            case .lost: verdict.counts.lost -= 1
            case .duplicate: verdict.counts.duplicates -= 1
            case .wrongPlayer: verdict.counts.wrongPlayer -= 1
            case .forgedDelivered: verdict.counts.forgedDelivered -= 1
            case .refundedUnacknowledged: verdict.counts.refundedUnacknowledged -= 1
            }
        }
        verdict.inFlight += uncharged
        verdict.counts.inFlight = Set(verdict.inFlight.map { $0.transactionId ?? $0.detail }).count
        return verdict
    }
}

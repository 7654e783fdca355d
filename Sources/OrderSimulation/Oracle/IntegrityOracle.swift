import Ledger

/// Compares what Apple and Google charged with what the server's ledger delivered,
/// transaction by transaction: the invariants a paid order must keep.
///
/// A charge that stands must have its goods in the ledger exactly once, with the payer; a
/// refunded charge must have nothing left (either never delivered, or delivered and
/// reversed); nothing may be delivered without a charge; and no Google Play purchase may be
/// refunded by Google for want of acknowledgement.
public struct IntegrityOracle: Sendable {
    /// What one unit of a product grants; `nil` for a product the server does not sell.
    public var grants: @Sendable (_ productId: String) -> Grants?

    /// Creates an oracle for a catalog.
    public init(grants: @escaping @Sendable (_ productId: String) -> Grants?) {
        self.grants = grants
    }

    /// Judges the charges against the ledger.
    public func judge(charges: [Charge], ledger: [LedgerDelivery]) -> IntegrityVerdict {
        let deliveries = Dictionary(ledger.map { ($0.transactionId, $0) }, uniquingKeysWith: { first, _ in first })
        var violations: [IntegrityViolation] = []
        var delivered = 0
        for charge in charges {
            let delivery = deliveries[charge.transactionId]
            if delivery != nil { delivered += 1 }
            violations += judge(charge, delivery: delivery)
        }
        let charged = Set(charges.map(\.transactionId))
        for delivery in ledger where !charged.contains(delivery.transactionId) {
            violations.append(
                IntegrityViolation(
                    kind: .forgedDelivered, transactionId: delivery.transactionId,
                    detail: "delivered to \(delivery.playerId) (\(delivery.net)) but Apple never charged it"))
        }
        func count(_ kind: IntegrityViolation.Kind) -> Int { violations.count { $0.kind == kind } }
        let counts = IntegrityCounts(
            charged: charges.count, delivered: delivered, lost: count(.lost), duplicates: count(.duplicate),
            wrongPlayer: count(.wrongPlayer), forgedDelivered: count(.forgedDelivered),
            refunded: charges.count(where: \.refunded), refundedUnacknowledged: count(.refundedUnacknowledged))
        return IntegrityVerdict(counts: counts, violations: violations)
    }

    private func judge(_ charge: Charge, delivery: LedgerDelivery?) -> [IntegrityViolation] {
        let owed = charge.refunded ? [:] : owedGrants(charge)
        let unacknowledged =
            charge.refundedUnacknowledged
            ? [violation(.refundedUnacknowledged, charge, "Google refunded it: not acknowledged within three days")]
            : []
        return unacknowledged + judge(charge, owed: owed, delivery: delivery)
    }

    private func judge(_ charge: Charge, owed: Grants, delivery: LedgerDelivery?) -> [IntegrityViolation] {
        guard let delivery else {
            guard owed.isEmpty else {
                return [violation(.lost, charge, "charged for \(owed) and never delivered")]
            }
            return []
        }
        var violations: [IntegrityViolation] = []
        if delivery.playerId != charge.payer {
            violations.append(
                violation(
                    .wrongPlayer, charge,
                    "paid by \(charge.payer ?? "an unknown player"), delivered to \(delivery.playerId)"))
        }
        let held = delivery.net.filter { $0.value != 0 }
        let items = Set(owed.keys).union(held.keys)
        if items.contains(where: { (held[$0] ?? 0) > (owed[$0] ?? 0) }) {
            violations.append(
                violation(
                    .duplicate, charge,
                    "ledger holds \(held) where \(owed) is owed (\(charge.refunded ? "refunded" : "charge stands"))"))
        } else if items.contains(where: { (held[$0] ?? 0) < (owed[$0] ?? 0) }) {
            violations.append(violation(.lost, charge, "ledger holds \(held) where \(owed) is owed"))
        }
        return violations
    }

    /// What a standing charge is owed: the product's grants times the quantity.
    private func owedGrants(_ charge: Charge) -> Grants {
        (grants(charge.productId) ?? [:]).mapValues { $0 * Int64(charge.quantity) }
    }

    private func violation(_ kind: IntegrityViolation.Kind, _ charge: Charge, _ detail: String) -> IntegrityViolation {
        IntegrityViolation(kind: kind, transactionId: charge.transactionId, detail: "\(charge.productId): \(detail)")
    }
}

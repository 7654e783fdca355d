import PurchaseSDK

/// Every state the devices' journals wrote, in the order they wrote them: the devices'
/// side of an offender's history.
actor JournalTimeline {
    private let started: ContinuousClock.Instant
    private var transitions: [JournalTransition] = []

    init(started: ContinuousClock.Instant) {
        self.started = started
    }

    /// Records that `device` journaled `record`.
    func record(_ record: PurchaseRecord, device: String) {
        transitions.append(
            JournalTransition(
                at: (ContinuousClock.now - started) / .seconds(1), device: device, recordId: record.id,
                playerId: record.playerId, productId: record.productId, origin: record.origin.rawValue,
                state: record.state.label, orderId: record.orderId, appAccountToken: record.appAccountToken,
                transactionId: record.transactionId, transactionFinished: record.transactionFinished))
    }

    /// The transitions of every order that ever carried `transactionId` or `token`, in time
    /// order (an order's early states, before it knew its transaction, included).
    func transitions(transactionId: String?, token: String?) -> [JournalTransition] {
        let records = Set(
            transitions.lazy.filter {
                ($0.transactionId != nil && $0.transactionId == transactionId)
                    || ($0.appAccountToken != nil && $0.appAccountToken == token)
            }
            .map(\.recordId))
        return transitions.filter { records.contains($0.recordId) }
    }
}

extension PurchaseState {
    /// The state as one word, with a failure's reason: `purchased`, `failed:REASON`, …
    var label: String {
        if case .failed(let reason) = self { return "failed:\(reason)" }
        return name
    }
}

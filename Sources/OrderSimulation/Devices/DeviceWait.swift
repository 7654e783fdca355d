import PurchaseSDK

/// Work a device has left for one purchase, named by its transaction or, before Apple
/// charged, by its order token.
struct DeviceWait: Sendable {
    var transactionId: String?
    var token: String?
    var wait: PurchaseWait
}

extension PurchaseRecord {
    /// Whether the pipeline still has work for this order: an unsettled state, or a failed
    /// one whose transaction is not finished yet. A pending order waits for the store, not
    /// the pipeline, so the store's pending purchases speak for it.
    var hasWorkLeft: Bool {
        switch state {
        case .created, .purchasing, .purchased, .reported, .delivered: true
        case .failed: transactionId != nil && !transactionFinished
        case .finished, .cancelled, .pending: false
        }
    }
}

extension DeviceWait {
    /// A transaction the store still holds open on phone `phone` (`detail` says how) and,
    /// when the app is not running there, that too: nothing on the phone moves then.
    static func storeHeld(_ transactionId: String, _ detail: String, running: Bool, on phone: String) -> [DeviceWait] {
        var waits = [
            DeviceWait(transactionId: transactionId, token: nil, wait: PurchaseWait(.unfinishedTransaction, detail))
        ]
        if !running {
            waits.append(
                DeviceWait(
                    transactionId: transactionId, token: nil,
                    wait: PurchaseWait(.appNotRunning, "the app on \(phone) is not running")))
        }
        return waits
    }

    /// The orders in the journal of `pipeline`, on phone `phone`, the pipeline still works on
    /// (``PurchaseRecord/hasWorkLeft``).
    static func journal(of pipeline: PurchasePipeline?, on phone: String) async -> [DeviceWait] {
        let records = await pipeline?.allRecords() ?? []
        return records.filter(\.hasWorkLeft).map { record in
            DeviceWait(
                transactionId: record.transactionId, token: record.appAccountToken,
                wait: PurchaseWait(
                    .journal,
                    "\(phone) journal: \(record.state.label) for \(record.playerId), \(record.attempts) failed attempts"
                ))
        }
    }
}

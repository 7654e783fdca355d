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

/// How a purchase ended, as the game shows it. Also what
/// ``PurchasePipeline/outcomes`` streams, including deliveries resumed after a restart.
public enum PurchaseOutcome: Hashable, Sendable {
    /// The server delivered the goods (``PurchaseRecord/delivery``) and the transaction is finished.
    case delivered(PurchaseRecord)
    /// Waiting for Ask to Buy or the bank; delivered when the store approves.
    case pending(PurchaseRecord)
    /// Nothing was charged.
    case cancelled(PurchaseRecord)
    /// Refused for good, for the record's ``PurchaseState/failed(reason:)`` reason. Also a
    /// restored transaction another player keeps (origin ``PurchaseRecord/Origin/restore``,
    /// reason `kept_by_other_player` or `refused`): finished with the store, nothing
    /// delivered to this record's player.
    case failed(PurchaseRecord)

    /// The order concerned.
    public var record: PurchaseRecord {
        switch self {
        case .delivered(let record), .pending(let record), .cancelled(let record), .failed(let record): record
        }
    }

    /// The outcome a settled record stands for, or `nil` while work remains.
    init?(settled record: PurchaseRecord) {
        switch record.state {
        case .finished: self = .delivered(record)
        case .pending: self = .pending(record)
        case .cancelled: self = .cancelled(record)
        case .failed: self = .failed(record)
        case .created, .purchasing, .purchased, .reported, .delivered: return nil
        }
    }
}

import Foundation
import Ledger
import Testing

/// Refund-state notifications as the intake records and settles them, with the share their
/// signed transaction carries.
enum RefundNoticeFixture {
    /// Records a `type` notification for `transactionId` signed at `signedAt` ms, carrying
    /// `share` (milliunits; `nil`: none, as a whole refund or a reversal); `true` when new.
    @discardableResult
    static func record(
        _ store: any LedgerStore, _ transactionId: String, _ type: String, share: Int? = nil, signedAt: Int64,
        uuid: String = UUID().uuidString
    ) async throws -> Bool {
        try await store.recordNotification(
            store: .appStore,
            notificationUUID: uuid, type: type, subtype: nil, transactionId: transactionId,
            signedDate: Date(timeIntervalSince1970: Double(signedAt) / 1_000), refund: notice(type, share: share),
            receivedAt: Date())
    }

    /// The ledger's notice for an Apple notification of `type` carrying `share`, as the
    /// intake maps it: a REFUND or REVOKE sets the share (all of it when `nil`), a
    /// REFUND_REVERSED none; any other type is no notice.
    static func notice(_ type: String, share: Int? = nil) -> RefundNotice? {
        switch type {
        case "REFUND": RefundNotice(kind: .refund, refundedShare: share ?? RefundShare.whole, reason: type)
        case "REVOKE": RefundNotice(kind: .revoke, refundedShare: share ?? RefundShare.whole, reason: type)
        case "REFUND_REVERSED": RefundNotice(kind: .reversal, refundedShare: 0, reason: type)
        default: nil
        }
    }

    /// Records a new notice and settles the transaction, as the intake does.
    static func settle(
        _ store: any LedgerStore, _ transactionId: String, _ type: String, share: Int? = nil, signedAt: Int64
    ) async throws -> RefundSettlement {
        #expect(try await record(store, transactionId, type, share: share, signedAt: signedAt))
        return try await store.settleRefundState(store: .appStore, transactionId: transactionId, reason: type)
    }

    /// The refund messages in the outbox for `transactionId`, in sequence order.
    static func messages(_ store: any LedgerStore, _ transactionId: String) async throws -> [RefundMessage] {
        var messages: [RefundMessage] = []
        while let message = try await store.outboxMessage(
            idempotencyKey: RefundMessage.idempotencyKey(
                store: .appStore, transactionId: transactionId, sequence: messages.count + 1))
        {
            messages.append(try RefundMessage.decode(message.payload))
        }
        return messages
    }
}

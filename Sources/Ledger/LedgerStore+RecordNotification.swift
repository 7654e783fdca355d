import Foundation

extension LedgerStore {
    /// Records an App Store Server Notification that carries no revoked share (every type
    /// but REFUND and REVOKE, whose share then counts as all of the transaction); see
    /// ``recordNotification(notificationUUID:type:subtype:transactionId:signedDate:revokedShare:receivedAt:)``.
    public func recordNotification(
        notificationUUID: String,
        type: String,
        subtype: String?,
        transactionId: String?,
        signedDate: Date?,
        receivedAt: Date
    ) async throws -> Bool {
        try await recordNotification(
            notificationUUID: notificationUUID, type: type, subtype: subtype, transactionId: transactionId,
            signedDate: signedDate, revokedShare: nil, receivedAt: receivedAt)
    }
}

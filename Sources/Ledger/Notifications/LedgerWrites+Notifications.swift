import Foundation

extension LedgerWrites {
    /// Records a new notification and its ``HistoryEventType/notificationReceived`` event
    /// (with Apple's signed date and the revoked share it carries, if any); `false` (nothing
    /// written) when its UUID is known (Apple's retries).
    static func recordNotification(
        _ notification: NotificationRecord,
        signedDate: Date?,
        revokedShare: Int?
    ) -> LedgerOperation<Bool> {
        LedgerOperation.first(LedgerSQL.insertNotification(notification)) { _ in () }.then { recorded in
            guard recorded != nil else { return .done(false) }
            return LedgerOperation.execute(
                try LedgerSQL.insertNotificationEvent(notification, signedDate: signedDate, revokedShare: revokedShare)
            )
            .map { true }
        }
    }
}

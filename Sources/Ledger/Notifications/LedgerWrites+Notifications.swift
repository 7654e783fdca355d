import Foundation

extension LedgerWrites {
    /// Records a new notification, its refund notice (when it carries one about a
    /// transaction) and its ``HistoryEventType/notificationReceived`` event, with the
    /// store's signed date; `false` (nothing written) when its UUID is known (the store's
    /// retries).
    static func recordNotification(
        _ notification: NotificationRecord,
        signedDate: Date?,
        refund: RefundNotice?
    ) -> LedgerOperation<Bool> {
        LedgerOperation.first(LedgerSQL.insertNotification(notification)) { _ in () }.then { recorded in
            guard recorded != nil else { return .done(false) }
            let notice: LedgerOperation<Void>
            if let refund, let transactionId = notification.transactionId {
                notice = .execute(
                    LedgerSQL.insertRefundNotice(
                        refund, noticeId: notification.notificationUUID, store: notification.store,
                        transactionId: transactionId,
                        signedAt: signedDate, receivedAt: notification.receivedAt))
            } else {
                notice = .done(())
            }
            return notice.then {
                .execute(try LedgerSQL.insertNotificationEvent(notification, signedDate: signedDate, refund: refund))
            }
            .map { true }
        }
    }
}

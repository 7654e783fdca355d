import Foundation

/// The body of a Get Notification History request (`POST /inApps/v1/notifications/history`):
/// which App Store Server Notifications to list.
///
/// `startDate` and `endDate` are required by Apple; the other fields narrow the result.
/// Name either a ``transactionId`` or a ``notificationType``, not both. Property names and
/// JSON keys are Apple's; absent fields are left out of the JSON.
public struct NotificationHistoryRequest: Hashable, Codable, Sendable {
    /// The start of the period, in milliseconds since 1970; within the past 180 days.
    public var startDate: Int64?
    /// The end of the period, in milliseconds since 1970; after ``startDate``.
    public var endDate: Int64?
    /// Only notifications of this type.
    public var notificationType: NotificationType?
    /// Only notifications of this subtype; requires a matching ``notificationType``.
    public var notificationSubtype: NotificationSubtype?
    /// Only notifications about the customer who made this transaction.
    public var transactionId: String?
    /// Only notifications the App Store failed to deliver.
    public var onlyFailures: Bool?

    /// Creates a request from Apple's raw values.
    ///
    /// - Parameters:
    ///   - startDate: the start, in milliseconds since 1970.
    ///   - endDate: the end, in milliseconds since 1970.
    ///   - notificationType: only this notification type.
    ///   - notificationSubtype: only this subtype.
    ///   - transactionId: only this customer's notifications.
    ///   - onlyFailures: only undelivered notifications.
    public init(
        startDate: Int64?,
        endDate: Int64?,
        notificationType: NotificationType? = nil,
        notificationSubtype: NotificationSubtype? = nil,
        transactionId: String? = nil,
        onlyFailures: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.transactionId = transactionId
        self.onlyFailures = onlyFailures
    }

    /// Creates a request for a period given as dates, rounded to whole milliseconds.
    ///
    /// - Parameters:
    ///   - start: the start of the period.
    ///   - end: the end of the period.
    ///   - notificationType: only this notification type.
    ///   - notificationSubtype: only this subtype.
    ///   - transactionId: only this customer's notifications.
    ///   - onlyFailures: only undelivered notifications.
    public init(
        start: Date,
        end: Date,
        notificationType: NotificationType? = nil,
        notificationSubtype: NotificationSubtype? = nil,
        transactionId: String? = nil,
        onlyFailures: Bool? = nil
    ) {
        self.init(
            startDate: EpochMilliseconds.milliseconds(start),
            endDate: EpochMilliseconds.milliseconds(end),
            notificationType: notificationType,
            notificationSubtype: notificationSubtype,
            transactionId: transactionId,
            onlyFailures: onlyFailures
        )
    }
}

/// One page of the notification history: the body of Apple's Get Notification History
/// response (`POST /inApps/v1/notifications/history`).
///
/// While ``hasMore`` is `true`, send the same request again with ``paginationToken`` for
/// the next page. Property names and JSON keys are Apple's; every field is optional.
public struct NotificationHistoryResponse: Hashable, Codable, Sendable {
    /// The notifications of this page.
    public var notificationHistory: [NotificationHistoryResponseItem]?
    /// The token to pass as `paginationToken` to get the next page.
    public var paginationToken: String?
    /// Whether the App Store has more notifications after this page.
    public var hasMore: Bool?

    /// Creates a page; every field defaults to absent.
    public init(
        notificationHistory: [NotificationHistoryResponseItem]? = nil,
        paginationToken: String? = nil,
        hasMore: Bool? = nil
    ) {
        self.notificationHistory = notificationHistory
        self.paginationToken = paginationToken
        self.hasMore = hasMore
    }
}

import AppStoreModel

/// Request a Test Notification and Get Test Notification Status.
extension AppStoreEmulator {
    /// Request a Test Notification: sends a TEST notification to the notification URL and
    /// returns its token (the notification's `notificationUUID`).
    ///
    /// - Throws: ``APIError`` 404 with 4040007 when no notification URL is set.
    public func requestTestNotification(environment: AppStoreEnvironment) async throws -> SendTestNotificationResponse {
        guard await dispatcher.url != nil else {
            throw APIError(
                status: 404, code: .serverNotificationURLNotFound,
                "no App Store Server Notifications URL is set for \(environment.rawValue)")
        }
        return SendTestNotificationResponse(
            testNotificationToken: try await sendTestNotification(environment: environment))
    }

    /// Get Test Notification Status: the TEST notification a token names, signed as sent,
    /// and every attempt to deliver it so far (none while the first is under way).
    ///
    /// - Throws: ``APIError`` 404 with 4040008 for a token `environment` did not issue.
    public func testNotificationStatus(_ testNotificationToken: String, environment: AppStoreEnvironment)
        throws(APIError)
        -> CheckTestNotificationResponse
    {
        guard let notification = state.notifications[testNotificationToken], notification.notificationType == .test,
            notification.environment == environment
        else {
            throw APIError(
                status: 404, code: .testNotificationNotFound, "no test notification \(testNotificationToken)")
        }
        return CheckTestNotificationResponse(
            signedPayload: notification.signedPayload, sendAttempts: notification.sendAttemptItems)
    }
}

import Foundation

/// Carries one notification body to a server: the seam between ``NotificationDispatcher``
/// and the network.
///
/// ``HTTPNotificationTransport`` is the real one; tests supply fakes.
public protocol NotificationTransport: Sendable {
    /// POSTs `body` (Apple's JSON `{"signedPayload": "…"}` or a Pub/Sub push envelope,
    /// `Content-Type: application/json`) to `url` and reports what happened. Never throws: every failure is a result.
    func post(_ body: Data, to url: URL) async -> NotificationDeliveryResult
}

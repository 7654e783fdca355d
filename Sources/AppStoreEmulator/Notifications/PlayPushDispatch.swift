import AsyncHTTPClient
import Foundation
import PlayEmulator

/// The Play side's Real-time developer notifications delivered by a ``NotificationDispatcher``
/// of their own, as Cloud Pub/Sub pushes them: each attempt carries a fresh OIDC token
/// (``PlayEmulator/pushHeaders(for:at:)``), any of Pub/Sub's 2xx acknowledges, and a failed
/// push is retried on ``NotificationRetrySchedule/pubSubPush``; the notification faults
/// (drop, delay, duplicate, reorder) apply as to the App Store's.
struct PlayPushDispatch: PlayPushSink {
    /// The statuses with which a push endpoint acknowledges a message, Pub/Sub's.
    static let acknowledgingStatusCodes: Set<Int> = [102, 200, 201, 202, 204]

    let dispatcher: NotificationDispatcher

    /// A dispatch for `play`'s pushes, posted with `client`, every wait multiplied by
    /// `timeScale`; it tells `play` when a push's delivery ends.
    init(for play: PlayEmulator, timeScale: Double, client: HTTPClient) {
        dispatcher = NotificationDispatcher(
            url: nil,
            transport: HTTPNotificationTransport(
                client: client, timeout: HTTPNotificationTransport.timeout(forTimeScale: timeScale),
                headers: { url in play.pushHeaders(for: url) }),
            timeScale: timeScale, schedule: .pubSubPush, acknowledgingStatusCodes: Self.acknowledgingStatusCodes,
            onAttempt: { attempt in
                if !attempt.willRetry { play.pushEnded(messageId: attempt.notificationUUID) }
            })
    }

    func submit(_ push: PlayPush) async -> Bool {
        switch await dispatcher.submit(uuid: push.messageId, body: push.body) {
        case .scheduled, .alreadyPending, .shutDown: true
        case .dropped, .noURL, .exhausted: false
        }
    }

    func setEndpoint(_ url: URL?) async {
        await dispatcher.setURL(url)
    }
}

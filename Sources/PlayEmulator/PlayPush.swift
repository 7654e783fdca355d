import Foundation

/// One Pub/Sub push the Play side hands to its ``PlayPushSink``: the message's id and the
/// JSON body to POST (a `PubSubPushEnvelope`).
public struct PlayPush: Hashable, Sendable {
    /// The Pub/Sub `messageId`: the same on every attempt and duplicate.
    public var messageId: String
    /// The POST body.
    public var body: Data

    /// Creates a push.
    public init(messageId: String, body: Data) {
        self.messageId = messageId
        self.body = body
    }
}

/// What delivers the Play side's pushes: the App Store emulator's notification dispatcher
/// (with its retries and faults) in `AppStoreEmulator`; a fake in tests.
public protocol PlayPushSink: Sendable {
    /// Starts delivering `push`. Once its delivery ends (delivered, or given up), the sink
    /// calls ``PlayEmulator/pushEnded(messageId:)``.
    ///
    /// - Returns: Whether the push is still to be delivered (under way, or kept for the next
    ///   start); `false` when it never will be (dropped by faults, no endpoint), and the
    ///   Play side forgets it.
    func submit(_ push: PlayPush) async -> Bool

    /// Points pushes at `url` (pending ones included); `nil` stops them.
    func setEndpoint(_ url: URL?) async
}

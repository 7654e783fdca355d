import Foundation
import PlayModel

/// A Real-time developer notification published and not yet delivered: kept in
/// `play-state.json` (``PlayStateFile``) from the change that caused it until its push
/// succeeds or is given up, so a restart sends it again. Its property names are the field
/// names of its JSON there: renaming one is a format change.
struct PlayOutgoingNotification: Codable, Equatable, Sendable {
    /// The Pub/Sub `messageId`.
    var messageId: String
    /// When it was published (Pub/Sub's `publishTime`).
    var publishTime: Date
    /// The notification.
    var notification: DeveloperNotification

    /// The push's body: the Pub/Sub envelope of `subscription` with the notification's
    /// JSON, base64, as `message.data`.
    func envelope(subscription: String) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let message = PubSubMessage(
            data: try encoder.encode(notification).base64EncodedString(), messageId: messageId,
            publishTime: PlayTime.rfc3339(publishTime))
        return try encoder.encode(PubSubPushEnvelope(message: message, subscription: subscription))
    }
}

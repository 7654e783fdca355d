import Foundation

/// The `notificationUUID` an App Store Server Notification's `signedPayload` names, read
/// without checking its signature.
///
/// Only for deciding that nothing needs doing: a notification whose UUID the ledger has
/// already processed changes nothing when seen again, so it need not be verified again.
/// Never act on it: anything that changes the ledger comes from ``JWSVerifier/verifyNotification(_:)``.
/// A forged payload that names a processed UUID is skipped as that notification was; one
/// that names any other UUID goes on to verification and is refused there.
public struct UnverifiedNotificationClaim: Sendable, Hashable {
    /// The UUID the payload names (not empty).
    public let notificationUUID: String
    /// The `signedDate` the payload names (epoch milliseconds), when it is an integer: only
    /// for estimates, such as how dense a stretch of notification history is.
    public let signedDate: Int64?

    private struct Payload: Decodable {
        var notificationUUID: String?
        var signedDate: Int64?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            notificationUUID = try container.decodeIfPresent(String.self, forKey: .notificationUUID)
            // A date of another shape costs the estimate, not the claim.
            signedDate = try? container.decodeIfPresent(Int64.self, forKey: .signedDate)
        }

        private enum CodingKeys: String, CodingKey {
            case notificationUUID, signedDate
        }
    }

    /// Reads the claim from `signedPayload`, or `nil` when it is not a compact JWS whose
    /// payload is a JSON object with a non-empty string `notificationUUID`.
    public init?(signedPayload: String) {
        guard let compact = try? CompactJWS(signedPayload),
            let payload = try? JSONDecoder().decode(Payload.self, from: compact.payload),
            let uuid = payload.notificationUUID, !uuid.isEmpty
        else { return nil }
        notificationUUID = uuid
        signedDate = payload.signedDate
    }
}

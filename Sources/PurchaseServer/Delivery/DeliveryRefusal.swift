import AppStoreVerification
import Hummingbird

/// Why a reported transaction is not delivered (now): a permanent rejection with a stable
/// reason, or a temporary condition the client should retry after (`pending`).
struct DeliveryRefusal: Error, Hashable {
    /// Permanent (`rejected`) or temporary (`pending`).
    enum Kind: Hashable {
        case rejected
        case pending
    }

    var kind: Kind
    /// The stable reason code.
    var reason: String
    var message: String
    var status: HTTPResponse.Status
    /// The transaction concerned, once known.
    var transactionId: String?
    /// The order concerned, once known.
    var orderId: String?

    static func rejected(
        _ reason: String, _ message: String, status: HTTPResponse.Status = .unprocessableContent,
        transactionId: String? = nil, orderId: String? = nil
    ) -> DeliveryRefusal {
        DeliveryRefusal(
            kind: .rejected, reason: reason, message: message, status: status, transactionId: transactionId,
            orderId: orderId)
    }

    static func pending(_ reason: String, _ message: String, transactionId: String? = nil) -> DeliveryRefusal {
        DeliveryRefusal(
            kind: .pending, reason: reason, message: message, status: .accepted, transactionId: transactionId,
            orderId: nil)
    }
}

extension DeliveryRefusal {
    /// How long a client is asked to wait (`Retry-After`, seconds) before reporting again
    /// data whose verification could not be completed.
    static let verificationRetryAfterSeconds = 30

    /// Signed data failed verification: `verification_unavailable` (503, report again
    /// later) when the failure is retryable (the revocation check could not be made),
    /// otherwise rejected (422) with the verification code.
    static func verificationFailed(_ error: VerificationError, transactionId: String? = nil) -> DeliveryRefusal {
        guard error.isRetryable else {
            return .rejected(error.code.rawValue, error.message, transactionId: transactionId)
        }
        return DeliveryRefusal(
            kind: .pending, reason: "verification_unavailable", message: error.message, status: .serviceUnavailable,
            transactionId: transactionId, orderId: nil)
    }

    /// The transaction is bound to another player's order, or was delivered to another player.
    static func belongsToOtherPlayer(transactionId: String, orderId: String?) -> DeliveryRefusal {
        .rejected(
            "transaction_belongs_to_other_player", "transaction \(transactionId) belongs to another player",
            status: .conflict, transactionId: transactionId, orderId: orderId)
    }
}

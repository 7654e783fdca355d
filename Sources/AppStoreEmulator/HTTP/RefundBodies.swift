import AppStoreModel
import Foundation

/// The optional body of `POST /emulator/v1/transactions/{id}/refund`: `{"percentage":
/// 30000, "revocationReason": 1}`, every field optional; no body refunds all of it, for
/// reason 0.
struct RefundRequest: Decodable {
    /// The share to refund now, in milliunits (1 to 100,000); absent refunds what is left.
    var percentage: Int?
    /// Apple's `revocationReason`: 0 (other) or 1 (an issue in the app).
    var revocationReason: RevocationReason?

    /// Reads `body`: empty is a refund of all that is left; otherwise the JSON above, or
    /// `malformed_body` / `invalid_revocation_reason` (400).
    static func read(_ body: Data) throws(EmulatorError) -> RefundRequest {
        guard !body.isEmpty else { return RefundRequest() }
        let request = try JSONResponse.decode(RefundRequest.self, from: body)
        if let reason = request.revocationReason,
            reason != .refundedForOtherReason && reason != .refundedDueToIssue
        {
            throw EmulatorError("invalid_revocation_reason", "revocationReason must be 0 or 1, not \(reason)")
        }
        return request
    }
}

/// What the refund and revocation control routes answer: the transaction's refund state
/// and, while it is refunded or revoked, Apple's revocation type and refunded share.
struct RevocationAnswer: Encodable {
    var refundState: EmulatedTransaction.RefundState
    var revocationType: RevocationType?
    var revocationPercentage: Int?

    init(_ transaction: EmulatedTransaction) {
        refundState = transaction.refundState
        revocationType = transaction.isRevoked ? transaction.revocationType : nil
        revocationPercentage = transaction.isRefunded ? transaction.revocationPercentage : nil
    }
}

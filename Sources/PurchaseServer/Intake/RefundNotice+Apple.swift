import AppStoreModel
import Ledger

extension RefundNotice {
    /// Apple's refund-state notification as the ledger's notice, or `nil` for any other
    /// type: a REFUND or REVOKE sets the share its signed transaction carries
    /// (`revokedShare`, from `revocationPercentage`; all of it when absent), a
    /// REFUND_REVERSED none. Apple's type is kept as the notice's reason.
    init?(apple type: NotificationType?, revokedShare: Int?) {
        guard let type else { return nil }
        switch type {
        case .refund: self.init(kind: .refund, refundedShare: revokedShare ?? RefundShare.whole, reason: type.rawValue)
        case .revoke: self.init(kind: .revoke, refundedShare: revokedShare ?? RefundShare.whole, reason: type.rawValue)
        case .refundReversed: self.init(kind: .reversal, refundedShare: 0, reason: type.rawValue)
        default: return nil
        }
    }
}

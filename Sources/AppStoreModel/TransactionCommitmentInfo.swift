import Foundation

/// Where a monthly subscription with a 12-month commitment stands (Apple's
/// `TransactionCommitmentInfo` in ``JWSTransactionDecodedPayload/commitmentInfo``, App Store
/// Server API 1.21).
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct TransactionCommitmentInfo: Hashable, Codable, Sendable {
    /// Which monthly billing period of the commitment this transaction pays for (from 1).
    public var billingPeriodNumber: Int?
    /// When the commitment ends (ms since 1970); see ``commitmentExpiresDateValue``.
    public var commitmentExpiresDate: Int64?
    /// The price of the whole commitment, in milliunits of the transaction's `currency`.
    public var commitmentPrice: Int64?
    /// How many monthly billing periods the commitment has.
    public var totalBillingPeriods: Int?

    /// Creates commitment information; every field defaults to absent.
    public init(
        billingPeriodNumber: Int? = nil,
        commitmentExpiresDate: Int64? = nil,
        commitmentPrice: Int64? = nil,
        totalBillingPeriods: Int? = nil
    ) {
        self.billingPeriodNumber = billingPeriodNumber
        self.commitmentExpiresDate = commitmentExpiresDate
        self.commitmentPrice = commitmentPrice
        self.totalBillingPeriods = totalBillingPeriods
    }
}

extension TransactionCommitmentInfo {
    /// ``commitmentExpiresDate`` as a `Date`; setting it stores whole milliseconds.
    public var commitmentExpiresDateValue: Date? {
        get { EpochMilliseconds.date(commitmentExpiresDate) }
        set { commitmentExpiresDate = EpochMilliseconds.milliseconds(newValue) }
    }
}

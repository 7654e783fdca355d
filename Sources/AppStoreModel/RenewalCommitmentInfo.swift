import Foundation

/// The renewal of a monthly subscription with a 12-month commitment (Apple's
/// `RenewalCommitmentInfo` in ``JWSRenewalInfoDecodedPayload/commitmentInfo``, App Store
/// Server API 1.21): what happens when the commitment ends.
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct RenewalCommitmentInfo: Hashable, Codable, Sendable {
    /// The product the subscription renews to when the commitment ends.
    public var commitmentAutoRenewProductId: String?
    /// Whether the subscription renews when the commitment ends.
    public var commitmentAutoRenewStatus: AutoRenewStatus?
    /// How the renewal after the commitment is billed.
    public var commitmentRenewalBillingPlanType: RenewalBillingPlanType?
    /// When the commitment renews (ms since 1970); see ``commitmentRenewalDateValue``.
    public var commitmentRenewalDate: Int64?
    /// The price of the renewal after the commitment, in milliunits of the renewal info's
    /// `currency`.
    public var commitmentRenewalPrice: Int64?

    /// Creates commitment information; every field defaults to absent.
    public init(
        commitmentAutoRenewProductId: String? = nil,
        commitmentAutoRenewStatus: AutoRenewStatus? = nil,
        commitmentRenewalBillingPlanType: RenewalBillingPlanType? = nil,
        commitmentRenewalDate: Int64? = nil,
        commitmentRenewalPrice: Int64? = nil
    ) {
        self.commitmentAutoRenewProductId = commitmentAutoRenewProductId
        self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
        self.commitmentRenewalBillingPlanType = commitmentRenewalBillingPlanType
        self.commitmentRenewalDate = commitmentRenewalDate
        self.commitmentRenewalPrice = commitmentRenewalPrice
    }
}

extension RenewalCommitmentInfo {
    /// ``commitmentRenewalDate`` as a `Date`; setting it stores whole milliseconds.
    public var commitmentRenewalDateValue: Date? {
        get { EpochMilliseconds.date(commitmentRenewalDate) }
        set { commitmentRenewalDate = EpochMilliseconds.milliseconds(newValue) }
    }
}

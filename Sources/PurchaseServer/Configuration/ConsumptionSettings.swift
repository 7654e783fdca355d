import AppStoreModel
import Foundation

/// What the server's answers to Apple's `CONSUMPTION_REQUEST` (Send Consumption
/// Information) state beyond what the ledger knows: the refund outcome the game prefers
/// and whether it offered a sample. Answers are sent only with
/// ``ServerConfiguration/answerConsumptionRequests`` and the player's recorded consent.
public struct ConsumptionSettings: Codable, Hashable, Sendable {
    /// How `refundPreference` is chosen.
    public enum RefundPreferencePolicy: String, Codable, Hashable, Sendable, CaseIterable {
        /// Never stated: Apple decides without the game's preference.
        case none
        /// Always `DECLINE`.
        case decline
        /// Always `GRANT_FULL`.
        case grantFull
        /// `GRANT_PRORATED` when Apple can prorate: for a subscription, or with a reported
        /// consumption strictly between none and all of it; otherwise not stated.
        case grantProrated
        /// From the consumption the game reported: `DECLINE` when all of it was spent,
        /// `GRANT_PRORATED` when part of it, `GRANT_FULL` when none of it or when the
        /// purchase was never delivered; not stated without a report.
        case byConsumption
    }

    /// How `refundPreference` is chosen; ``RefundPreferencePolicy/none`` by default.
    public var refundPreference: RefundPreferencePolicy
    /// Apple's `sampleContentProvided`: whether the game offered a free sample, trial or
    /// description of the content before purchase; `false` by default.
    public var sampleContentProvided: Bool

    /// Creates settings; by default no refund preference and no sample.
    public init(refundPreference: RefundPreferencePolicy = .none, sampleContentProvided: Bool = false) {
        self.refundPreference = refundPreference
        self.sampleContentProvided = sampleContentProvided
    }

    /// Decodes settings; absent keys keep the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ConsumptionSettings()
        refundPreference =
            try container.decodeIfPresent(RefundPreferencePolicy.self, forKey: .refundPreference)
            ?? defaults.refundPreference
        sampleContentProvided =
            try container.decodeIfPresent(Bool.self, forKey: .sampleContentProvided) ?? defaults.sampleContentProvided
    }

    /// The refund preference to state for a purchase, or `nil` to state none.
    ///
    /// - Parameters:
    ///   - delivered: whether the ledger delivered the purchase.
    ///   - consumptionPercentage: the share the game reported spent (milliunits), if any.
    ///   - isSubscription: whether the product is an auto-renewable subscription (Apple
    ///     computes its consumption itself).
    public func statedPreference(delivered: Bool, consumptionPercentage: Int?, isSubscription: Bool)
        -> RefundPreference?
    {
        switch refundPreference {
        case .none: return nil
        case .decline: return .decline
        case .grantFull: return .grantFull
        case .grantProrated:
            let prorated = isSubscription || (1..<Milliunits.whole).contains(consumptionPercentage ?? 0)
            return prorated ? .grantProrated : nil
        case .byConsumption:
            guard delivered else { return .grantFull }
            guard let consumptionPercentage else { return nil }
            switch consumptionPercentage {
            case ...0: return .grantFull
            case Milliunits.whole...: return .decline
            default: return .grantProrated
            }
        }
    }
}

import Foundation

/// An external purchase token that the App Store created but the developer did not report
/// (Apple's `externalPurchaseToken` object, sent with `EXTERNAL_PURCHASE_TOKEN`).
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct ExternalPurchaseToken: Hashable, Codable, Sendable {
    /// The unique identifier of the token.
    public var externalPurchaseId: String?
    /// When the token was created (ms since 1970); see ``tokenCreationDateValue``.
    public var tokenCreationDate: Int64?
    /// The app's Apple identifier.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?

    /// Creates a token; every field defaults to absent.
    public init(
        externalPurchaseId: String? = nil,
        tokenCreationDate: Int64? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil
    ) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
    }

    /// ``tokenCreationDate`` as a `Date`; setting it stores whole milliseconds.
    public var tokenCreationDateValue: Date? {
        get { EpochMilliseconds.date(tokenCreationDate) }
        set { tokenCreationDate = EpochMilliseconds.milliseconds(newValue) }
    }
}

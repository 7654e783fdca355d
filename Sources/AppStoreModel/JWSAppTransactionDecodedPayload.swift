import Foundation

/// The payload of a signed app transaction (StoreKit 2's `AppTransaction`, the App Store
/// Server API's `signedAppTransactionInfo`), decoded from its JWS.
///
/// Property names and JSON keys are Apple's. Every field is optional; unknown fields are
/// ignored. Dates are stored as Apple signs them, integer milliseconds since 1970; each
/// has a `Date` accessor named after it with a `Value` suffix (`signedDate` →
/// ``signedDateValue``).
public struct JWSAppTransactionDecodedPayload: Hashable, Codable, Sendable {
    /// The environment the app transaction belongs to.
    public var receiptType: AppStoreEnvironment?
    /// The app's Apple identifier (absent in the sandbox).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app version the app transaction is for (`CFBundleVersion`).
    public var applicationVersion: String?
    /// The identifier of the app version, as App Store Connect assigns it.
    public var versionExternalIdentifier: Int64?
    /// When the App Store created the app transaction (ms since 1970); see
    /// ``receiptCreationDateValue``.
    public var receiptCreationDate: Int64?
    /// When the customer first bought or downloaded the app (ms since 1970); see
    /// ``originalPurchaseDateValue``.
    public var originalPurchaseDate: Int64?
    /// The app version the customer first bought or downloaded.
    public var originalApplicationVersion: String?
    /// A Base64 value for checking that the app transaction belongs to the device.
    public var deviceVerification: String?
    /// The UUID used with ``deviceVerification``.
    public var deviceVerificationNonce: String?
    /// When the customer pre-ordered the app (ms since 1970); see ``preorderDateValue``.
    public var preorderDate: Int64?
    /// The identifier of the app download transaction.
    public var appTransactionId: String?
    /// The platform on which the customer first bought the app.
    public var originalPlatform: PurchasePlatform?
    /// When the App Store signed this payload (ms since 1970); see ``signedDateValue``.
    public var signedDate: Int64?

    /// Creates an app transaction payload; every field defaults to absent.
    public init(
        receiptType: AppStoreEnvironment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        applicationVersion: String? = nil,
        versionExternalIdentifier: Int64? = nil,
        receiptCreationDate: Int64? = nil,
        originalPurchaseDate: Int64? = nil,
        originalApplicationVersion: String? = nil,
        deviceVerification: String? = nil,
        deviceVerificationNonce: String? = nil,
        preorderDate: Int64? = nil,
        appTransactionId: String? = nil,
        originalPlatform: PurchasePlatform? = nil,
        signedDate: Int64? = nil
    ) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.versionExternalIdentifier = versionExternalIdentifier
        self.receiptCreationDate = receiptCreationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.preorderDate = preorderDate
        self.appTransactionId = appTransactionId
        self.originalPlatform = originalPlatform
        self.signedDate = signedDate
    }
}

extension JWSAppTransactionDecodedPayload {
    /// ``receiptCreationDate`` as a `Date`; setting it stores whole milliseconds.
    public var receiptCreationDateValue: Date? {
        get { EpochMilliseconds.date(receiptCreationDate) }
        set { receiptCreationDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// ``originalPurchaseDate`` as a `Date`; setting it stores whole milliseconds.
    public var originalPurchaseDateValue: Date? {
        get { EpochMilliseconds.date(originalPurchaseDate) }
        set { originalPurchaseDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// ``preorderDate`` as a `Date`; setting it stores whole milliseconds.
    public var preorderDateValue: Date? {
        get { EpochMilliseconds.date(preorderDate) }
        set { preorderDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// ``signedDate`` as a `Date`; setting it stores whole milliseconds.
    public var signedDateValue: Date? {
        get { EpochMilliseconds.date(signedDate) }
        set { signedDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// ``deviceVerificationNonce`` parsed as a UUID; `nil` when absent or not a UUID.
    public var deviceVerificationNonceUUID: UUID? {
        deviceVerificationNonce.flatMap(UUID.init(uuidString:))
    }
}

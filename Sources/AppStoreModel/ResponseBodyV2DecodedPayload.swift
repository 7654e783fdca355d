import Foundation

/// The payload of an App Store Server Notification V2 (the JWS in
/// ``ResponseBodyV2/signedPayload``), decoded.
///
/// It holds one of ``data`` (most notifications), ``summary`` (`RENEWAL_EXTENSION` with
/// subtype `SUMMARY`), ``externalPurchaseToken`` (`EXTERNAL_PURCHASE_TOKEN`) or ``appData``
/// (`RESCIND_CONSENT`). Property
/// names and JSON keys are Apple's; every field is optional and unknown fields are
/// ignored. The same ``notificationUUID`` may arrive more than once when Apple retries.
public struct ResponseBodyV2DecodedPayload: Hashable, Codable, Sendable {
    /// The event the notification reports.
    public var notificationType: NotificationType?
    /// Details of the event, for some notification types.
    public var subtype: NotificationSubtype?
    /// The unique identifier of the notification; use it to ignore duplicates.
    public var notificationUUID: String?
    /// The app, environment and signed transaction and renewal info of the event.
    public var data: NotificationData?
    /// The notification format version, `"2.0"`.
    public var version: String?
    /// When the App Store signed the notification (ms since 1970); see ``signedDateValue``.
    public var signedDate: Int64?
    /// The result of a renewal date extension for all subscribers.
    public var summary: NotificationSummary?
    /// An external purchase token that was not reported.
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// The app and the customer's signed app transaction.
    public var appData: AppData?

    /// Creates a notification payload; every field defaults to absent.
    public init(
        notificationType: NotificationType? = nil,
        subtype: NotificationSubtype? = nil,
        notificationUUID: String? = nil,
        data: NotificationData? = nil,
        version: String? = nil,
        signedDate: Int64? = nil,
        summary: NotificationSummary? = nil,
        externalPurchaseToken: ExternalPurchaseToken? = nil,
        appData: AppData? = nil
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.version = version
        self.signedDate = signedDate
        self.summary = summary
        self.externalPurchaseToken = externalPurchaseToken
        self.appData = appData
    }
}

extension ResponseBodyV2DecodedPayload {
    /// ``signedDate`` as a `Date`; setting it stores whole milliseconds.
    public var signedDateValue: Date? {
        get { EpochMilliseconds.date(signedDate) }
        set { signedDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// The bundle identifier, from whichever of ``data``, ``summary``,
    /// ``externalPurchaseToken`` or ``appData`` the notification holds.
    public var bundleId: String? {
        data?.bundleId ?? summary?.bundleId ?? externalPurchaseToken?.bundleId ?? appData?.bundleId
    }

    /// The app's Apple identifier, from whichever of ``data``, ``summary``,
    /// ``externalPurchaseToken`` or ``appData`` the notification holds.
    public var appAppleId: Int64? {
        data?.appAppleId ?? summary?.appAppleId ?? externalPurchaseToken?.appAppleId ?? appData?.appAppleId
    }

    /// The environment, from ``data``, ``summary`` or ``appData``.
    public var environment: AppStoreEnvironment? { data?.environment ?? summary?.environment ?? appData?.environment }
}

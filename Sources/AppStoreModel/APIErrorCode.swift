/// The `errorCode` of an App Store Server API error (see ``APIErrorResponse``).
///
/// The first three digits repeat the HTTP status: 400xxxx bad request, 404xxxx not found,
/// 429xxxx rate limited, 500xxxx internal error. Unknown values decode unchanged.
public struct APIErrorCode: OpenEnumeration, ExpressibleByIntegerLiteral {
    /// Apple's error code.
    public var rawValue: Int

    /// Creates an error code from Apple's integer.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 4000000: the request is invalid and can't be accepted.
    public static let generalBadRequest: APIErrorCode = 4_000_000
    /// 4000002: the app identifier is invalid.
    public static let invalidAppIdentifier: APIErrorCode = 4_000_002
    /// 4000005: the `revision` token is invalid.
    public static let invalidRequestRevision: APIErrorCode = 4_000_005
    /// 4000006: the transaction id is invalid.
    public static let invalidTransactionId: APIErrorCode = 4_000_006
    /// 4000008: the original transaction id is invalid.
    public static let invalidOriginalTransactionId: APIErrorCode = 4_000_008
    /// 4000009: the extend-by-days value is invalid.
    public static let invalidExtendByDays: APIErrorCode = 4_000_009
    /// 4000010: the renewal-date extension reason code is invalid.
    public static let invalidExtendReasonCode: APIErrorCode = 4_000_010
    /// 4000011: the request identifier is invalid.
    public static let invalidRequestIdentifier: APIErrorCode = 4_000_011
    /// 4000012: the notification history start date is too far in the past.
    public static let startDateTooFarInPast: APIErrorCode = 4_000_012
    /// 4000013: the notification history start date is after the end date.
    public static let startDateAfterEndDate: APIErrorCode = 4_000_013
    /// 4000014: the pagination token is invalid.
    public static let invalidPaginationToken: APIErrorCode = 4_000_014
    /// 4000015: the start date is invalid.
    public static let invalidStartDate: APIErrorCode = 4_000_015
    /// 4000016: the end date is invalid.
    public static let invalidEndDate: APIErrorCode = 4_000_016
    /// 4000017: the pagination token expired.
    public static let paginationTokenExpired: APIErrorCode = 4_000_017
    /// 4000018: the notification type or subtype is invalid.
    public static let invalidNotificationType: APIErrorCode = 4_000_018
    /// 4000019: the request names more than one filter (e.g. a transaction id and a
    /// notification type).
    public static let multipleFiltersSupplied: APIErrorCode = 4_000_019
    /// 4000020: the test notification token is invalid.
    public static let invalidTestNotificationToken: APIErrorCode = 4_000_020
    /// 4000021: the transaction history `sort` is neither `ASCENDING` nor `DESCENDING`.
    public static let invalidSort: APIErrorCode = 4_000_021
    /// 4000022: a transaction history `productType` is not one of Apple's.
    public static let invalidProductType: APIErrorCode = 4_000_022
    /// 4000023: a transaction history `productId` is invalid.
    public static let invalidProductId: APIErrorCode = 4_000_023
    /// 4000024: a transaction history `subscriptionGroupIdentifier` is invalid.
    public static let invalidSubscriptionGroupIdentifier: APIErrorCode = 4_000_024
    /// 4000025: the deprecated transaction history `excludeRevoked` is neither `true` nor
    /// `false`.
    public static let invalidExcludeRevoked: APIErrorCode = 4_000_025
    /// 4000026: the transaction history `inAppOwnershipType` is not one of Apple's.
    public static let invalidInAppOwnershipType: APIErrorCode = 4_000_026
    /// 4000027: a required storefront country code list is empty.
    public static let invalidEmptyStorefrontCountryCodeList: APIErrorCode = 4_000_027
    /// 4000028: a storefront country code is invalid.
    public static let invalidStorefrontCountryCode: APIErrorCode = 4_000_028
    /// 4000030: the transaction history `revoked` is neither `true` nor `false`.
    public static let invalidRevoked: APIErrorCode = 4_000_030
    /// 4000031: a subscription `status` filter is invalid.
    public static let invalidStatus: APIErrorCode = 4_000_031
    /// 4000032: `accountTenure` is invalid.
    public static let invalidAccountTenure: APIErrorCode = 4_000_032
    /// 4000033: `appAccountToken` is not a valid UUID.
    public static let invalidAppAccountToken: APIErrorCode = 4_000_033
    /// 4000034: `consumptionStatus` is invalid.
    public static let invalidConsumptionStatus: APIErrorCode = 4_000_034
    /// 4000035: `customerConsented` is missing or false.
    public static let invalidCustomerConsented: APIErrorCode = 4_000_035
    /// 4000036: `deliveryStatus` is invalid.
    public static let invalidDeliveryStatus: APIErrorCode = 4_000_036
    /// 4000037: `lifetimeDollarsPurchased` is invalid.
    public static let invalidLifetimeDollarsPurchased: APIErrorCode = 4_000_037
    /// 4000038: `lifetimeDollarsRefunded` is invalid.
    public static let invalidLifetimeDollarsRefunded: APIErrorCode = 4_000_038
    /// 4000039: `platform` is invalid.
    public static let invalidPlatform: APIErrorCode = 4_000_039
    /// 4000040: `playTime` is invalid.
    public static let invalidPlayTime: APIErrorCode = 4_000_040
    /// 4000041: `sampleContentProvided` is invalid.
    public static let invalidSampleContentProvided: APIErrorCode = 4_000_041
    /// 4000042: `userStatus` is invalid.
    public static let invalidUserStatus: APIErrorCode = 4_000_042
    /// 4000043: the transaction is not a consumable.
    public static let invalidTransactionNotConsumable: APIErrorCode = 4_000_043
    /// 4000044: the consumption request's `refundPreference` is not one of Apple's.
    public static let invalidRefundPreference: APIErrorCode = 4_000_044
    /// 4000047: the endpoint does not support this kind of In-App Purchase.
    public static let invalidTransactionTypeNotSupported: APIErrorCode = 4_000_047
    /// 4000048: the endpoint does not accept an app transaction id.
    public static let appTransactionIdNotSupported: APIErrorCode = 4_000_048
    /// 4000183: Set App Account Token's `appAccountToken` is neither a UUID nor empty.
    public static let invalidAppAccountTokenUUID: APIErrorCode = 4_000_183
    /// 4000185: the endpoint does not support a transaction shared through Family Sharing.
    public static let familyTransactionNotSupported: APIErrorCode = 4_000_185
    /// 4000187: the endpoint expects an original transaction id.
    public static let transactionIdIsNotOriginalTransactionId: APIErrorCode = 4_000_187
    /// 4000209: a consumption request gives `consumptionPercentage` for an auto-renewable
    /// subscription, whose share Apple computes itself.
    public static let consumptionPercentageAutoRenewableSubscription: APIErrorCode = 4_000_209
    /// 4030004: the subscription cannot get a renewal-date extension in its state.
    public static let subscriptionExtensionIneligible: APIErrorCode = 4_030_004
    /// 4030005: the subscription already got the most renewal-date extensions allowed.
    public static let subscriptionMaxExtension: APIErrorCode = 4_030_005
    /// 4030007: the subscription came through Family Sharing and cannot be extended.
    public static let familySharedSubscriptionExtensionIneligible: APIErrorCode = 4_030_007
    /// 4040001: the App Store account was not found.
    public static let accountNotFound: APIErrorCode = 4_040_001
    /// 4040002: the App Store account was not found; try again.
    public static let accountNotFoundRetryable: APIErrorCode = 4_040_002
    /// 4040003: the app was not found.
    public static let appNotFound: APIErrorCode = 4_040_003
    /// 4040004: the app was not found; try again.
    public static let appNotFoundRetryable: APIErrorCode = 4_040_004
    /// 4040005: the original transaction id was not found.
    public static let originalTransactionIdNotFound: APIErrorCode = 4_040_005
    /// 4040006: the original transaction id was not found; try again.
    public static let originalTransactionIdNotFoundRetryable: APIErrorCode = 4_040_006
    /// 4040007: no App Store Server Notifications URL is configured for the app.
    public static let serverNotificationURLNotFound: APIErrorCode = 4_040_007
    /// 4040008: the test notification was not found.
    public static let testNotificationNotFound: APIErrorCode = 4_040_008
    /// 4040009: the subscription-renewal-date extension request was not found.
    public static let statusRequestNotFound: APIErrorCode = 4_040_009
    /// 4040010: the transaction id was not found for this app and environment.
    public static let transactionIdNotFound: APIErrorCode = 4_040_010
    /// 4040019: the customer has no app transaction.
    public static let appTransactionDoesNotExist: APIErrorCode = 4_040_019
    /// 4290000: the request exceeded the rate limit.
    public static let rateLimitExceeded: APIErrorCode = 4_290_000
    /// 5000000: an internal error.
    public static let generalInternal: APIErrorCode = 5_000_000
    /// 5000001: an internal error; try again.
    public static let generalInternalRetryable: APIErrorCode = 5_000_001

    /// Whether Apple documents the same request as able to succeed later: the
    /// `…Retryable` codes and ``rateLimitExceeded``.
    public var isRetryable: Bool {
        switch self {
        case .accountNotFoundRetryable, .appNotFoundRetryable, .originalTransactionIdNotFoundRetryable,
            .rateLimitExceeded, .generalInternalRetryable:
            true
        default: false
        }
    }
}

import AppStoreModel
import Foundation
import Hummingbird

/// Apple's rules for App Store Server API inputs, checked before an operation runs: a
/// refused input gets Apple's 400 error code, never an answer about nothing.
enum ServerAPIValidation {
    /// A transaction id from a path or a body: Apple's are decimal digits.
    static func transactionId(_ id: String) throws(APIError) -> String {
        guard !id.isEmpty, id.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw APIError(status: 400, code: .invalidTransactionId, "transactionId must be decimal digits")
        }
        return id
    }

    // MARK: Get Transaction History

    /// Get Transaction History's query parameters as Apple names them: `startDate`,
    /// `endDate` (milliseconds since 1970), `productId`, `productType` and
    /// `subscriptionGroupIdentifier` (each repeatable), `sort`, `inAppOwnershipType`,
    /// `revoked`, and the deprecated `excludeRevoked`. Booleans are `true` or `false` in any
    /// case (Apple's Python library sends `True`). Unknown parameters are ignored.
    ///
    /// - Returns: The request, checked with ``check(_:)-(TransactionHistoryRequest)``, and
    ///   whether `excludeRevoked` is `true`.
    /// - Throws: ``APIError`` 400 with 4000015 / 4000016 for a date that is not a number of
    ///   milliseconds, 4000030 / 4000025 for a `revoked` / `excludeRevoked` that is not a
    ///   boolean, and the codes of ``check(_:)-(TransactionHistoryRequest)``.
    static func transactionHistoryRequest(_ query: Parameters) throws(APIError) -> (
        request: TransactionHistoryRequest, excludeRevoked: Bool
    ) {
        func milliseconds(_ name: String, _ code: APIErrorCode) throws(APIError) -> Int64? {
            guard let text = query.get(name) else { return nil }
            guard let value = Int64(text), value >= 0 else {
                throw APIError(status: 400, code: code, "\(name) must be milliseconds since 1970, not \(text)")
            }
            return value
        }
        func boolean(_ name: String, _ code: APIErrorCode) throws(APIError) -> Bool? {
            guard let text = query.get(name) else { return nil }
            switch text.lowercased() {
            case "true": return true
            case "false": return false
            default: throw APIError(status: 400, code: code, "\(name) must be true or false, not \(text)")
            }
        }
        func list(_ name: String) -> [String]? {
            let values = query.getAll(name)
            return values.isEmpty ? nil : values
        }
        let request = TransactionHistoryRequest(
            startDate: try milliseconds("startDate", .invalidStartDate),
            endDate: try milliseconds("endDate", .invalidEndDate),
            productIds: list("productId"),
            productTypes: list("productType")?.map(TransactionHistoryRequest.ProductType.init(rawValue:)),
            sort: query.get("sort").map(TransactionHistoryRequest.Order.init(rawValue:)),
            subscriptionGroupIdentifiers: list("subscriptionGroupIdentifier"),
            inAppOwnershipType: query.get("inAppOwnershipType").map(InAppOwnershipType.init(rawValue:)),
            revoked: try boolean("revoked", .invalidRevoked)
        )
        let excludeRevoked = try boolean("excludeRevoked", .invalidExcludeRevoked) ?? false
        try check(request)
        return (request, excludeRevoked)
    }

    /// A Get Transaction History request: Apple's values only, and an end after the start.
    ///
    /// - Throws: ``APIError`` 400 with 4000015 / 4000016 for a negative date, 4000016 for an
    ///   `endDate` not after `startDate` (Apple lists no StartDateAfterEndDateError for this
    ///   operation, and asks for "an endDate that's later than the startDate"), 4000023 for
    ///   an empty `productId` or one with characters no product id has, 4000022 for an
    ///   unknown `productType`, 4000021 for an unknown `sort`, 4000024 for an empty
    ///   `subscriptionGroupIdentifier`, 4000026 for an `inAppOwnershipType` other than
    ///   `PURCHASED` and `FAMILY_SHARED`.
    static func check(_ request: TransactionHistoryRequest) throws(APIError) {
        if let start = request.startDate, start < 0 {
            throw APIError(status: 400, code: .invalidStartDate, "startDate must not be negative")
        }
        if let end = request.endDate, end < 0 {
            throw APIError(status: 400, code: .invalidEndDate, "endDate must not be negative")
        }
        if let start = request.startDate, let end = request.endDate, end <= start {
            throw APIError(status: 400, code: .invalidEndDate, "endDate must be later than startDate")
        }
        for productId in request.productIds ?? [] where !isProductId(productId) {
            throw APIError(
                status: 400, code: .invalidProductId,
                "productId must be letters, digits, periods, underscores and hyphens, not \"\(productId)\"")
        }
        for type in request.productTypes ?? [] where !TransactionHistoryRequest.ProductType.documented.contains(type) {
            throw APIError(status: 400, code: .invalidProductType, "unknown productType \(type.rawValue)")
        }
        if let sort = request.sort, !TransactionHistoryRequest.Order.documented.contains(sort) {
            throw APIError(
                status: 400, code: .invalidSort, "sort must be ASCENDING or DESCENDING, not \(sort.rawValue)")
        }
        if request.subscriptionGroupIdentifiers?.contains(where: \.isEmpty) == true {
            throw APIError(
                status: 400, code: .invalidSubscriptionGroupIdentifier, "subscriptionGroupIdentifier is empty")
        }
        if let ownership = request.inAppOwnershipType, ![.purchased, .familyShared].contains(ownership) {
            throw APIError(
                status: 400, code: .invalidInAppOwnershipType,
                "inAppOwnershipType must be PURCHASED or FAMILY_SHARED, not \(ownership.rawValue)")
        }
    }

    /// Whether `id` could be a product id: Apple's are letters, digits, periods and
    /// underscores (the emulator's catalog may add hyphens).
    private static func isProductId(_ id: String) -> Bool {
        !id.isEmpty
            && id.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
            }
    }

    // MARK: Get Notification History

    /// The subtypes each notification type has, as Apple documents them: a subtype is valid
    /// only with its type.
    static let subtypes: [NotificationType: Set<NotificationSubtype>] = [
        .subscribed: [.initialBuy, .resubscribe],
        .didChangeRenewalPref: [.upgrade, .downgrade],
        .didChangeRenewalStatus: [.autoRenewEnabled, .autoRenewDisabled],
        .offerRedeemed: [.upgrade, .downgrade],
        .didRenew: [.billingRecovery],
        .expired: [.voluntary, .billingRetry, .priceIncrease, .productNotForSale],
        .didFailToRenew: [.gracePeriod],
        .priceIncrease: [.pending, .accepted],
        .renewalExtension: [.summary, .failure],
        .externalPurchaseToken: [.unreported, "CREATED", .activeTokenReminder],
    ]

    /// How far back notification history goes: 180 days in production, 30 in the sandbox.
    static func historyWindow(_ environment: AppStoreEnvironment) -> TimeInterval {
        Double(environment == .production ? 180 : 30) * 86_400
    }

    /// A Get Notification History request: both dates, in Apple's window and in order,
    /// known types, one kind of filter.
    ///
    /// - Returns: The start and the end, in milliseconds since 1970.
    /// - Throws: ``APIError`` 400 with 4000015 / 4000016 for a missing or negative
    ///   `startDate` / `endDate`, 4000013 for an `endDate` not after `startDate`, 4000012 for
    ///   a `startDate` before ``historyWindow(_:)``, 4000018 for an unknown type, or a
    ///   subtype that is not one of its type's (or has no type), 4000006 for a
    ///   `transactionId` that is not digits, 4000019 for a `transactionId` with a type.
    static func check(
        _ request: NotificationHistoryRequest, environment: AppStoreEnvironment, now: Date
    ) throws(APIError) -> (start: Int64, end: Int64) {
        guard let start = request.startDate, start >= 0 else {
            throw APIError(status: 400, code: .invalidStartDate, "startDate must be milliseconds since 1970")
        }
        guard let end = request.endDate, end >= 0 else {
            throw APIError(status: 400, code: .invalidEndDate, "endDate must be milliseconds since 1970")
        }
        guard start < end else {
            throw APIError(status: 400, code: .startDateAfterEndDate, "startDate must be before endDate")
        }
        let earliest = Int64((now.timeIntervalSince1970 - historyWindow(environment)) * 1000)
        guard start >= earliest else {
            throw APIError(
                status: 400, code: .startDateTooFarInPast,
                "startDate must be within the past \(Int(historyWindow(environment) / 86_400)) days "
                    + "in \(environment.rawValue)")
        }
        if let type = request.notificationType, !NotificationType.documented.contains(type) {
            throw APIError(status: 400, code: .invalidNotificationType, "unknown notificationType \(type.rawValue)")
        }
        if let subtype = request.notificationSubtype {
            guard let type = request.notificationType, subtypes[type]?.contains(subtype) == true else {
                throw APIError(
                    status: 400, code: .invalidNotificationType,
                    "notificationSubtype \(subtype.rawValue) is not one of its notificationType's")
            }
        }
        if let transactionId = request.transactionId {
            _ = try Self.transactionId(transactionId)
            if request.notificationType != nil {
                throw APIError(
                    status: 400, code: .multipleFiltersSupplied,
                    "filter by transactionId or by notificationType, not both")
            }
        }
        return (start, end)
    }

    // MARK: Send Consumption Information, Set App Account Token

    /// A Send Consumption Information body: consent given, the required fields there, every
    /// value Apple's.
    ///
    /// - Throws: ``APIError`` 400 with 4000035 unless `customerConsented` is `true`, 4000041
    ///   without `sampleContentProvided`, 4000036 without a known `deliveryStatus`, 4000044
    ///   for an unknown `refundPreference`; with 4000000 and Apple's name
    ///   (``APIError/unnumbered(_:_:)``) `ConsumptionPercentageOutOfRangeError` for a
    ///   `consumptionPercentage` outside 0 to 100,000 and
    ///   `UndeliveredConsumptionPercentageNonZeroError` for one not 0 with a `deliveryStatus`
    ///   other than `DELIVERED`.
    static func check(_ consumption: ConsumptionRequest) throws(APIError) {
        guard consumption.customerConsented == true else {
            throw APIError(status: 400, code: .invalidCustomerConsented, "customerConsented must be true")
        }
        guard consumption.sampleContentProvided != nil else {
            throw APIError(
                status: 400, code: .invalidSampleContentProvided, "sampleContentProvided is required (true or false)")
        }
        guard let delivery = consumption.deliveryStatus, DeliveryStatus.documented.contains(delivery) else {
            throw APIError(
                status: 400, code: .invalidDeliveryStatus,
                "deliveryStatus must be one of "
                    + DeliveryStatus.documented.map(\.rawValue).sorted().joined(separator: ", "))
        }
        if let preference = consumption.refundPreference, !RefundPreference.documented.contains(preference) {
            throw APIError(
                status: 400, code: .invalidRefundPreference, "unknown refundPreference \(preference.rawValue)")
        }
        if let percentage = consumption.consumptionPercentage {
            guard (0...Milliunits.whole).contains(percentage) else {
                throw APIError.unnumbered(
                    "ConsumptionPercentageOutOfRangeError",
                    "consumptionPercentage must be 0 to \(Milliunits.whole) milliunits, not \(percentage)")
            }
            guard delivery == .delivered || percentage == 0 else {
                throw APIError.unnumbered(
                    "UndeliveredConsumptionPercentageNonZeroError",
                    "consumptionPercentage must be 0 when deliveryStatus is \(delivery.rawValue)")
            }
        }
    }

    /// A Set App Account Token body: a UUID, or an empty string for none.
    ///
    /// - Returns: The token, or `nil` to remove it.
    /// - Throws: ``APIError`` 400 with 4000183 for anything else.
    static func appAccountToken(_ request: UpdateAppAccountTokenRequest) throws(APIError) -> String? {
        if request.appAccountToken.isEmpty { return nil }
        guard UUID(uuidString: request.appAccountToken) != nil else {
            throw APIError(
                status: 400, code: .invalidAppAccountTokenUUID,
                "appAccountToken must be a UUID or an empty string, not \"\(request.appAccountToken)\"")
        }
        return request.appAccountToken
    }
}

import AppStoreModel
import Foundation

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

    /// A Get Notification History request: both dates, known types, one kind of filter.
    static func check(_ request: NotificationHistoryRequest) throws(APIError) {
        guard let start = request.startDate, start >= 0 else {
            throw APIError(status: 400, code: .invalidStartDate, "startDate must be milliseconds since 1970")
        }
        guard let end = request.endDate, end >= 0 else {
            throw APIError(status: 400, code: .invalidEndDate, "endDate must be milliseconds since 1970")
        }
        if let type = request.notificationType, !NotificationType.documented.contains(type) {
            throw APIError(status: 400, code: .invalidNotificationType, "unknown notificationType \(type.rawValue)")
        }
        if let subtype = request.notificationSubtype {
            guard NotificationSubtype.documented.contains(subtype) else {
                throw APIError(
                    status: 400, code: .invalidNotificationType, "unknown notificationSubtype \(subtype.rawValue)")
            }
            guard request.notificationType != nil else {
                throw APIError(
                    status: 400, code: .invalidNotificationType, "notificationSubtype needs its notificationType")
            }
        }
        if let transactionId = request.transactionId {
            _ = try Self.transactionId(transactionId)
            if request.notificationType != nil || request.notificationSubtype != nil {
                throw APIError(
                    status: 400, code: .multipleFiltersSupplied,
                    "filter by transactionId or by notificationType, not both")
            }
        }
    }

    /// A Send Consumption Information body: consent given, every value Apple's.
    static func check(_ consumption: ConsumptionRequestV1) throws(APIError) {
        guard consumption.customerConsented == true else {
            throw APIError(status: 400, code: .invalidCustomerConsented, "customerConsented must be true")
        }
        let ranges: [(value: Int?, range: ClosedRange<Int>, code: APIErrorCode, name: String)] = [
            (consumption.consumptionStatus, 0...3, .invalidConsumptionStatus, "consumptionStatus"),
            (consumption.platform, 0...2, .invalidPlatform, "platform"),
            (consumption.deliveryStatus, 0...5, .invalidDeliveryStatus, "deliveryStatus"),
            (consumption.accountTenure, 0...7, .invalidAccountTenure, "accountTenure"),
            (consumption.playTime, 0...7, .invalidPlayTime, "playTime"),
            (consumption.lifetimeDollarsRefunded, 0...7, .invalidLifetimeDollarsRefunded, "lifetimeDollarsRefunded"),
            (consumption.lifetimeDollarsPurchased, 0...7, .invalidLifetimeDollarsPurchased, "lifetimeDollarsPurchased"),
            (consumption.userStatus, 0...4, .invalidUserStatus, "userStatus"),
            (consumption.refundPreference, 0...3, .generalBadRequest, "refundPreference"),
        ]
        for field in ranges {
            if let value = field.value, !field.range.contains(value) {
                throw APIError(
                    status: 400, code: field.code,
                    "\(field.name) must be \(field.range.lowerBound) to \(field.range.upperBound)")
            }
        }
        if let token = consumption.appAccountToken, !token.isEmpty, UUID(uuidString: token) == nil {
            throw APIError(status: 400, code: .invalidAppAccountToken, "appAccountToken must be a UUID or empty")
        }
    }
}

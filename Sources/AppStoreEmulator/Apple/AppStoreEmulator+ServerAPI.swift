import AppStoreModel
import Foundation

/// The App Store Server API operations, per environment (the sandbox API sees only
/// sandbox transactions, as Apple's does).
extension AppStoreEmulator {
    /// The page size of history, refund history and notification history.
    static let pageSize = 20

    /// Get Transaction Info.
    public func transactionInfo(_ transactionId: String, environment: AppStoreEnvironment) throws
        -> TransactionInfoResponse
    {
        let transaction = try visibleTransaction(transactionId, environment: environment)
        return TransactionInfoResponse(signedTransactionInfo: try signedTransaction(transaction))
    }

    /// Get Transaction History (v2): every transaction of the customer who made
    /// `transactionId`, oldest first, in pages; `revision` is the token of the next page.
    public func transactionHistory(
        _ transactionId: String,
        revision: String?,
        environment: AppStoreEnvironment
    ) throws -> HistoryResponse {
        let anchor = try visibleTransaction(transactionId, environment: environment)
        let all = state.transactions(of: anchor.deviceId, in: environment)
        let (page, next) = try Self.page(all, after: revision)
        return HistoryResponse(
            revision: next ?? "\(all.count)",
            hasMore: next != nil,
            bundleId: configuration.bundleId,
            appAppleId: configuration.appAppleId,
            environment: environment,
            signedTransactions: try page.map(signedTransaction)
        )
    }

    /// Get Refund History (v2): the customer's refunded transactions, in pages.
    public func refundHistory(
        _ transactionId: String,
        revision: String?,
        environment: AppStoreEnvironment
    ) throws -> RefundHistoryResponse {
        let anchor = try visibleTransaction(transactionId, environment: environment)
        let refunded = state.transactions(of: anchor.deviceId, in: environment).filter(\.isRevoked)
        let (page, next) = try Self.page(refunded, after: revision)
        return RefundHistoryResponse(
            signedTransactions: try page.map(signedTransaction),
            revision: next ?? "\(refunded.count)",
            hasMore: next != nil
        )
    }

    /// Look Up Order ID: the transactions of a customer's order (status 1 when unknown).
    public func lookUpOrder(_ orderId: String, environment: AppStoreEnvironment) throws -> OrderLookupResponse {
        let matches = state.transactionOrder.compactMap { state.transactions[$0] }.filter {
            $0.orderId == orderId && $0.environment == environment
        }
        guard !matches.isEmpty else { return OrderLookupResponse(status: .invalid, signedTransactions: []) }
        return OrderLookupResponse(status: .valid, signedTransactions: try matches.map(signedTransaction))
    }

    /// Get Notification History: every notification issued in the window (whatever
    /// became of its delivery), filtered, oldest first, in pages.
    public func notificationHistory(
        _ request: NotificationHistoryRequest,
        paginationToken: String?,
        environment: AppStoreEnvironment
    ) throws -> NotificationHistoryResponse {
        guard let start = request.startDate, let end = request.endDate else {
            throw APIError(status: 400, code: .invalidStartDate, "startDate and endDate are required")
        }
        guard start <= end else {
            throw APIError(status: 400, code: .startDateAfterEndDate, "startDate is after endDate")
        }
        func matches(_ notification: EmulatedNotification) -> Bool {
            notification.environment == environment
                && (start..<end).contains(notification.signedDate)
                && (request.notificationType.map { $0 == notification.notificationType } ?? true)
                && (request.notificationSubtype.map { $0 == notification.subtype } ?? true)
                && (request.transactionId.map { $0 == notification.transactionId } ?? true)
                && (request.onlyFailures == true ? !notification.isDelivered : true)
        }
        // The token is a position in the issue order, where the next match is: each page
        // reads on from there instead of filtering the whole history again.
        let order = state.notificationOrder
        var position = 0
        if let paginationToken {
            guard let offset = Int(paginationToken), (0...order.count).contains(offset) else {
                throw APIError(status: 400, code: .invalidPaginationToken, "invalid pagination token")
            }
            position = offset
        }
        func nextMatch() -> EmulatedNotification? {
            while position < order.count {
                let candidate = state.notifications[order[position]]
                position += 1
                if let candidate, matches(candidate) { return candidate }
            }
            return nil
        }
        var page: [EmulatedNotification] = []
        while page.count < Self.pageSize, let notification = nextMatch() { page.append(notification) }
        // One more match means another page, starting at it.
        let next = nextMatch() == nil ? nil : "\(position - 1)"
        return NotificationHistoryResponse(
            notificationHistory: page.map { notification in
                NotificationHistoryResponseItem(
                    signedPayload: notification.signedPayload,
                    sendAttempts: notification.attempts.map {
                        SendAttemptItem(
                            attemptDate: $0.attemptDate,
                            sendAttemptResult: SendAttemptResult(rawValue: $0.sendAttemptResult)
                        )
                    }
                )
            },
            paginationToken: next,
            hasMore: next != nil
        )
    }

    /// Request a Test Notification.
    public func requestTestNotification(environment: AppStoreEnvironment) async throws -> SendTestNotificationResponse {
        SendTestNotificationResponse(testNotificationToken: try await sendTestNotification(environment: environment))
    }

    /// Send Consumption Information: recorded on the transaction, queryable through
    /// ``consumptionInformation(_:)``.
    public func recordConsumption(
        _ transactionId: String,
        _ consumption: ConsumptionRequestV1,
        environment: AppStoreEnvironment
    ) throws {
        var transaction = try visibleTransaction(transactionId, environment: environment)
        guard consumption.customerConsented == true else {
            throw APIError(status: 400, code: .generalBadRequest, "customerConsented must be true")
        }
        transaction.consumption = consumption
        try commit([.transaction(transaction)])
    }

    /// The consumption information the developer sent for a transaction.
    public func consumptionInformation(_ transactionId: String) throws -> ConsumptionRequestV1? {
        try transaction(transactionId).consumption
    }

    private func visibleTransaction(_ transactionId: String, environment: AppStoreEnvironment) throws
        -> EmulatedTransaction
    {
        guard let transaction = state.transactions[transactionId], transaction.environment == environment else {
            throw APIError(status: 404, code: .transactionIdNotFound, "transaction \(transactionId) not found")
        }
        return transaction
    }

    /// One page of `items` after the opaque `token` (an offset), and the next page's token.
    private static func page<T>(_ items: [T], after token: String?) throws -> (page: ArraySlice<T>, next: String?) {
        let start: Int
        if let token {
            guard let offset = Int(token), (0...items.count).contains(offset) else {
                throw APIError(status: 400, code: .invalidRequestRevision, "invalid revision")
            }
            start = offset
        } else {
            start = 0
        }
        let end = min(items.count, start + pageSize)
        return (items[start..<end], end < items.count ? "\(end)" : nil)
    }
}

/// A Server API failure, answered as Apple does: an HTTP status and
/// `{"errorCode": …, "errorMessage": …}`.
public struct APIError: Error, Sendable {
    public var status: Int
    public var body: APIErrorResponse

    init(status: Int, code: APIErrorCode, _ message: String) {
        self.status = status
        self.body = APIErrorResponse(errorCode: code, errorMessage: message)
    }
}

import AppStoreModel
import Foundation

/// Get Notification History.
extension AppStoreEmulator {
    /// Get Notification History: every notification issued in `environment` between
    /// `startDate` (included) and `endDate` (excluded), whatever became of its delivery,
    /// that matches the request's filters, oldest first, in pages of 20.
    ///
    /// `transactionId` narrows the history to the customer that transaction belongs to;
    /// `onlyFailures` to the notifications not delivered (yet): failed or still being
    /// retried.
    ///
    /// - Parameters:
    ///   - request: the period and the filters (see ``ServerAPIValidation`` for Apple's
    ///     rules, checked here).
    ///   - paginationToken: the previous page's `paginationToken`; `nil` for the first page.
    ///   - environment: the environment whose notifications are listed.
    ///   - now: the time the 180-day (production) or 30-day (sandbox) window ends at.
    /// - Throws: ``APIError`` 400 with Apple's code for a request Apple refuses (4000012
    ///   to 4000019) or a token this request did not issue (4000014); 404 with 4040010 for
    ///   an unknown `transactionId`.
    public func notificationHistory(
        _ request: NotificationHistoryRequest,
        paginationToken: String? = nil,
        environment: AppStoreEnvironment,
        now: Date = Date()
    ) throws -> NotificationHistoryResponse {
        let (start, end) = try ServerAPIValidation.check(request, environment: environment, now: now)
        let customer = try request.transactionId.map { try self.customer($0, environment: environment).deviceId }
        func matches(_ notification: EmulatedNotification) -> Bool {
            notification.environment == environment
                && (start..<end).contains(notification.signedDate)
                && (request.notificationType.map { $0 == notification.notificationType } ?? true)
                && (request.notificationSubtype.map { $0 == notification.subtype } ?? true)
                && (customer.map { $0 == notification.transactionId.flatMap { state.transactions[$0]?.deviceId } }
                    ?? true)
                && (request.onlyFailures == true ? !notification.isDelivered : true)
        }
        // The token's position is an index in the issue order, where the next match is:
        // each page reads on from there instead of filtering the whole history again.
        let order = state.notificationOrder
        var token = PageToken(query: [
            "notificationHistory", environment.rawValue, String(start), String(end),
            request.notificationType?.rawValue ?? "-", request.notificationSubtype?.rawValue ?? "-",
            request.transactionId ?? "-", String(request.onlyFailures ?? false),
        ])
        var position = 0
        if let paginationToken {
            guard let read = PageToken(paginationToken, of: token),
                let offset = Int(read.position ?? "0"), (0...order.count).contains(offset)
            else {
                throw APIError(status: 400, code: .invalidPaginationToken, "invalid pagination token for this request")
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
        let hasMore = nextMatch() != nil
        token.position = String(position - 1)
        return NotificationHistoryResponse(
            notificationHistory: page.map {
                NotificationHistoryResponseItem(signedPayload: $0.signedPayload, sendAttempts: $0.sendAttemptItems)
            },
            paginationToken: hasMore ? token.text : nil,
            hasMore: hasMore
        )
    }
}

extension EmulatedNotification {
    /// The delivery attempts as Apple's API lists them, oldest first.
    var sendAttemptItems: [SendAttemptItem] {
        attempts.map {
            SendAttemptItem(
                attemptDate: $0.attemptDate, sendAttemptResult: SendAttemptResult(rawValue: $0.sendAttemptResult))
        }
    }
}

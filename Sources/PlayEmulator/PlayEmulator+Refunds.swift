import Foundation
import PlayModel

extension PlayEmulator {
    /// How far back `purchases.voidedpurchases.list` looks: Google's 30 days (not scaled).
    public static let voidedLookback: TimeInterval = 30 * 86_400
    /// The most results a voided-purchases page holds, and the default.
    public static let voidedPageLimit = 1000

    /// `orders.refund`: refunds the one-time purchase of `orderId` in full at ``now``, a
    /// refund by the developer (`voidedSource` 1, `voidedReason` 0 other) that
    /// `purchases.voidedpurchases.list` then lists. With `revoke` the item is taken away
    /// (`purchaseState` 1, canceled); without it the user keeps it and only its
    /// `refundableQuantity` drops to 0.
    ///
    /// - Throws: ``GoogleErrorResponse``: 404 `applicationNotFound`, 404 `notFound` for an
    ///   unknown order, 400 `invalidPurchaseState` for a pending, canceled or already
    ///   refunded purchase.
    public func refund(packageName: String, orderId: String, revoke: Bool) throws(GoogleErrorResponse) {
        guard packageName == self.packageName else { throw GoogleErrors.applicationNotFound() }
        try update(storageFailure: GoogleErrors.storageUnavailable) { state throws(GoogleErrorResponse) in
            guard var purchase = state.purchases.values.first(where: { $0.orderId == orderId }) else {
                throw GoogleErrors.orderNotFound()
            }
            do {
                let record = try purchase.refund(
                    quantity: nil, revoke: revoke, source: VoidedSource.developer, reason: VoidedReason.other,
                    now: self.now())
                recordVoid(record, in: &state)
            } catch {
                throw GoogleErrors.invalidPurchaseState()
            }
            state.purchases[purchase.purchaseToken] = purchase
        }
    }

    /// `purchases.voidedpurchases.list`: the purchases voided (refunded, charged back,
    /// revoked by Google) whose record the emulator made between `startTime` and `endTime`,
    /// in the order it made them, a page of at most `maxResults`. Quantity-based partial
    /// refunds are listed only with `includeQuantityBasedPartialRefund`, subscriptions only
    /// with `type` 1.
    ///
    /// A `startTime` older than 30 days is read as 30 days ago, an `endTime` after now as
    /// now, as those are the bounds Google documents.
    ///
    /// - Throws: ``GoogleErrorResponse``: 404 `applicationNotFound`; 400 `invalid` for a
    ///   `type` other than 0 or 1, a `maxResults` outside 1…1000, a `startTime` after the
    ///   `endTime` or a `token` the emulator did not make.
    public func voidedPurchases(
        packageName: String, _ query: VoidedPurchasesQuery
    ) throws(GoogleErrorResponse) -> VoidedPurchasesListResponse {
        guard packageName == self.packageName else { throw GoogleErrors.applicationNotFound() }
        let limit = query.maxResults ?? Self.voidedPageLimit
        guard (1...Self.voidedPageLimit).contains(limit) else {
            throw GoogleErrors.invalidParameter("maxResults", "maxResults must be 1 to \(Self.voidedPageLimit).")
        }
        return try update(storageFailure: GoogleErrors.storageUnavailable) {
            state throws(GoogleErrorResponse) -> VoidedPurchasesListResponse in
            let now = PlayVoidedRecord.millis(self.now())
            let page: VoidedPageToken
            if let text = query.token {
                guard let token = VoidedPageToken(text: text) else {
                    throw GoogleErrors.invalidParameter("token", "The page token is invalid.")
                }
                page = token
            } else {
                let type = query.type ?? 0
                guard type == 0 || type == 1 else {
                    throw GoogleErrors.invalidParameter("type", "type must be 0 (one-time products) or 1.")
                }
                let oldest = now - Int64(Self.voidedLookback * 1000)
                let start = max(query.startTime ?? oldest, oldest)
                let end = min(query.endTime ?? now, now)
                guard start <= end else {
                    throw GoogleErrors.invalidParameter("startTime", "startTime must not be after endTime.")
                }
                page = VoidedPageToken(
                    index: 0, startTime: start, endTime: end, type: type,
                    partial: query.includeQuantityBasedPartialRefund ?? false)
            }
            var listed: [VoidedPurchase] = []
            var next: Int?
            var index = page.index
            while index < state.voided.count {
                let record = state.voided[index]
                let recorded = PlayVoidedRecord.millis(record.recordedTime)
                if (page.startTime...page.endTime).contains(recorded), page.partial || record.partialQuantity == nil,
                    page.type == 1 || !record.isSubscription
                {
                    if listed.count == limit {
                        next = index
                        break
                    }
                    listed.append(record.voidedPurchase)
                }
                index += 1
            }
            var nextPage = page
            nextPage.index = next ?? 0
            return VoidedPurchasesListResponse(
                tokenPagination: next.map { _ in TokenPagination(nextPageToken: nextPage.text) },
                voidedPurchases: listed)
        }
    }
}

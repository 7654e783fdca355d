import PlayEmulator
import PlayModel

extension PlayEmulator {
    /// The order ids of the one-time purchases Google refunded for want of acknowledgement
    /// (its three-day rule: `voidedSource` 2 Google, `voidedReason` 8 unacknowledged
    /// purchase), read as a server would, from `purchases.voidedpurchases.list`, every page.
    ///
    /// - Throws: Google's error answer.
    func threeDayRefunds() throws(GoogleErrorResponse) -> Set<String> {
        var orders: Set<String> = []
        var page: String?
        repeat {
            let answer = try voidedPurchases(
                packageName: packageName,
                VoidedPurchasesQuery(maxResults: Self.voidedPageLimit, token: page, type: 0))
            for voided in answer.voidedPurchases ?? []
            where voided.voidedSource == VoidedSource.google
                && voided.voidedReason == VoidedReason.unacknowledgedPurchase
            {
                if let orderId = voided.orderId { orders.insert(orderId) }
            }
            page = answer.tokenPagination?.nextPageToken
        } while page != nil
        return orders
    }
}

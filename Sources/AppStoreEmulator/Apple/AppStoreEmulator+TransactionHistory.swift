import AppStoreModel
import Foundation

/// Get Transaction History, version 2 and the deprecated version 1.
extension AppStoreEmulator {
    /// The version of Get Transaction History: which transactions it lists.
    public enum TransactionHistoryVersion: String, Sendable {
        /// `v1` (deprecated in App Store Server API 1.12): every transaction except finished
        /// consumables that are neither refunded nor revoked.
        case v1
        /// `v2`: every transaction, in any state.
        case v2
    }

    /// Get Transaction History: the transactions of the customer `anyTransactionId` belongs
    /// to that match `request`, in pages of 20 by the date Apple last modified each (oldest first unless
    /// `request.sort` is `DESCENDING`).
    ///
    /// Every page carries a `revision`: pass it for the next page, with the same request.
    /// The last page's revision, kept, later gives what the customer bought or Apple changed since.
    ///
    /// - Parameters:
    ///   - anyTransactionId: any id of the customer's (see ``customer(_:environment:)``).
    ///   - request: the filters and the order; checked by the caller against Apple's rules.
    ///   - excludeRevoked: the deprecated `excludeRevoked=true`: leave out refunded and
    ///     revoked transactions.
    ///   - revision: the previous page's `revision`; `nil` for the first page.
    ///   - version: which transactions are listed.
    ///   - environment: the environment whose transactions are listed.
    /// - Throws: ``APIError`` 404 with 4040010 for an unknown id; 400 with 4000005 for a
    ///   revision this query did not issue.
    public func transactionHistory(
        _ anyTransactionId: String,
        _ request: TransactionHistoryRequest = TransactionHistoryRequest(),
        excludeRevoked: Bool = false,
        revision: String? = nil,
        version: TransactionHistoryVersion = .v2,
        environment: AppStoreEnvironment
    ) throws -> HistoryResponse {
        let customer = try customer(anyTransactionId, environment: environment)
        let descending = request.sort == .descending
        let now = Date()
        let listed = state.transactions(of: customer.deviceId, in: environment).filter { transaction in
            (version == .v2 || transaction.type != .consumable || !transaction.finished || transaction.isRevoked)
                && !(excludeRevoked && transaction.isRevoked)
                && Self.matches(transaction.payload(bundleId: configuration.bundleId, signedAt: now), request)
        }
        let key = { (transaction: EmulatedTransaction) in
            TransactionSortKey(date: transaction.modifiedOrPurchaseDate, transactionId: transaction.transactionId)
        }
        let sorted = listed.sorted { descending ? key($0) > key($1) : key($0) < key($1) }
        let start = PageToken(query: Self.historyQuery(of: customer, request, excludeRevoked, version))
        let (page, next, hasMore) = try Self.page(
            sorted, by: key, descending: descending, after: revision, start: start,
            invalid: APIError(status: 400, code: .invalidRequestRevision, "invalid revision for this query"))
        return HistoryResponse(
            revision: next.text,
            hasMore: hasMore,
            bundleId: configuration.bundleId,
            appAppleId: configuration.appAppleId,
            environment: environment,
            signedTransactions: try page.map(signedTransaction)
        )
    }

    /// Whether a transaction, as signed, matches every filter of `request`.
    private static func matches(_ payload: JWSTransactionDecodedPayload, _ request: TransactionHistoryRequest) -> Bool {
        func contains<T: Equatable>(_ values: [T]?, _ value: T?) -> Bool {
            guard let values else { return true }
            return value.map(values.contains) ?? false
        }
        let purchased = payload.purchaseDate ?? 0
        return purchased >= (request.startDate ?? .min) && purchased < (request.endDate ?? .max)
            && contains(request.productIds, payload.productId)
            && contains(request.productTypes, payload.type.flatMap(TransactionHistoryRequest.ProductType.init))
            && contains(request.subscriptionGroupIdentifiers, payload.subscriptionGroupIdentifier)
            && contains(request.inAppOwnershipType.map { [$0] }, payload.inAppOwnershipType)
            && request.revoked.map { $0 == (payload.revocationDate != nil) } ?? true
    }

    /// What a revision is bound to: the operation, the customer and every filter, lists as
    /// sets (their order does not change the answer).
    private static func historyQuery(
        of customer: EmulatedAppTransaction, _ request: TransactionHistoryRequest, _ excludeRevoked: Bool,
        _ version: TransactionHistoryVersion
    ) -> [String] {
        func list(_ values: [String]?) -> String {
            values.map { Set($0).sorted().joined(separator: ",") } ?? "-"
        }
        return [
            "transactionHistory", version.rawValue, customer.environment.rawValue, customer.deviceId,
            request.startDate.map { String($0) } ?? "-", request.endDate.map { String($0) } ?? "-",
            list(request.productIds), list(request.productTypes?.map(\.rawValue)),
            request.sort?.rawValue ?? TransactionHistoryRequest.Order.ascending.rawValue,
            list(request.subscriptionGroupIdentifiers), request.inAppOwnershipType?.rawValue ?? "-",
            request.revoked.map { String($0) } ?? "-", String(excludeRevoked),
        ]
    }
}

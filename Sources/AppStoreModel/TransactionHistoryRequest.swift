/// The query of Get Transaction History (`GET /inApps/v2/history/{transactionId}`, and the
/// deprecated `v1`): which of the customer's transactions to list, and in which order.
///
/// Every field narrows the answer; a transaction is listed when it matches all of them, and
/// a list matches any of its values. Send the same query with every `revision` of one
/// listing. Property names are those of Apple's libraries; ``queryItems`` gives the
/// parameter names Apple's endpoint reads.
public struct TransactionHistoryRequest: Hashable, Sendable {
    /// Only transactions purchased at or after this time, in milliseconds since 1970.
    public var startDate: Int64?
    /// Only transactions purchased before this time, in milliseconds since 1970; later than
    /// ``startDate`` (a future time is valid).
    public var endDate: Int64?
    /// Only these products (`productId`, once per value).
    public var productIds: [String]?
    /// Only these kinds of product (`productType`, once per value).
    public var productTypes: [ProductType]?
    /// The order, by purchase date: ``Order/ascending`` (the default) or
    /// ``Order/descending``.
    public var sort: Order?
    /// Only subscriptions of these groups (`subscriptionGroupIdentifier`, once per value).
    public var subscriptionGroupIdentifiers: [String]?
    /// Only transactions the customer purchased, or only those shared with them.
    public var inAppOwnershipType: InAppOwnershipType?
    /// `true` for only refunded or revoked transactions, `false` for only the others.
    public var revoked: Bool?

    /// The kind of product a transaction history lists (Apple's `productType` query
    /// values, which differ from the ``AppStoreModel/ProductType`` strings of a signed
    /// transaction).
    ///
    /// Unknown values decode unchanged.
    public struct ProductType: OpenEnumeration, ExpressibleByStringLiteral {
        /// Apple's string for the product type.
        public var rawValue: String

        /// Creates a product type from Apple's string.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Auto-renewable subscriptions.
        public static let autoRenewable: ProductType = "AUTO_RENEWABLE"
        /// Non-renewing subscriptions.
        public static let nonRenewable: ProductType = "NON_RENEWABLE"
        /// Consumables.
        public static let consumable: ProductType = "CONSUMABLE"
        /// Non-consumables.
        public static let nonConsumable: ProductType = "NON_CONSUMABLE"

        /// Every value Apple documents.
        public static let documented: Set<ProductType> = [.autoRenewable, .nonRenewable, .consumable, .nonConsumable]

        /// The query value for the type of a signed transaction; `nil` for a type Apple's
        /// query has no value for.
        public init?(_ type: AppStoreModel.ProductType) {
            switch type {
            case .autoRenewable: self = .autoRenewable
            case .nonRenewing: self = .nonRenewable
            case .consumable: self = .consumable
            case .nonConsumable: self = .nonConsumable
            default: return nil
            }
        }
    }

    /// The order of a transaction history (Apple's `sort` query values).
    ///
    /// Unknown values decode unchanged.
    public struct Order: OpenEnumeration, ExpressibleByStringLiteral {
        /// Apple's string for the order.
        public var rawValue: String

        /// Creates an order from Apple's string.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Oldest first (the default).
        public static let ascending: Order = "ASCENDING"
        /// Newest first.
        public static let descending: Order = "DESCENDING"

        /// Every value Apple documents.
        public static let documented: Set<Order> = [.ascending, .descending]
    }

    /// Creates a query; every field defaults to absent (the whole history, oldest first).
    ///
    /// - Parameters:
    ///   - startDate: only purchases at or after this time, in milliseconds since 1970.
    ///   - endDate: only purchases before this time, in milliseconds since 1970.
    ///   - productIds: only these products.
    ///   - productTypes: only these kinds of product.
    ///   - sort: the order.
    ///   - subscriptionGroupIdentifiers: only subscriptions of these groups.
    ///   - inAppOwnershipType: only purchased, or only family-shared, transactions.
    ///   - revoked: only revoked transactions (`true`) or only the others (`false`).
    public init(
        startDate: Int64? = nil,
        endDate: Int64? = nil,
        productIds: [String]? = nil,
        productTypes: [ProductType]? = nil,
        sort: Order? = nil,
        subscriptionGroupIdentifiers: [String]? = nil,
        inAppOwnershipType: InAppOwnershipType? = nil,
        revoked: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIds = productIds
        self.productTypes = productTypes
        self.sort = sort
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
    }

    /// The query parameters Apple's endpoint reads, in a stable order: a list gives one
    /// parameter per value; absent fields give none.
    public var queryItems: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        if let startDate { items.append(("startDate", String(startDate))) }
        if let endDate { items.append(("endDate", String(endDate))) }
        items += (productIds ?? []).map { ("productId", $0) }
        items += (productTypes ?? []).map { ("productType", $0.rawValue) }
        if let sort { items.append(("sort", sort.rawValue)) }
        items += (subscriptionGroupIdentifiers ?? []).map { ("subscriptionGroupIdentifier", $0) }
        if let inAppOwnershipType { items.append(("inAppOwnershipType", inAppOwnershipType.rawValue)) }
        if let revoked { items.append(("revoked", String(revoked))) }
        return items
    }
}

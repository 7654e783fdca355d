import AppStoreSigning
import Foundation

/// The query of `purchases.voidedpurchases.list`, Google's parameters: `startTime` and
/// `endTime` (milliseconds since the epoch), `maxResults` and `token` (also as
/// `pageSelection.maxResults` and `pageSelection.token`), `type` and
/// `includeQuantityBasedPartialRefund`.
public struct VoidedPurchasesQuery: Hashable, Sendable {
    /// The oldest recorded time to list, milliseconds; 30 days before now when absent.
    public var startTime: Int64?
    /// The newest recorded time to list, milliseconds; now when absent.
    public var endTime: Int64?
    /// Results per page, 1…1000; 1000 when absent.
    public var maxResults: Int?
    /// The page to answer, from the last answer's `tokenPagination.nextPageToken`; when
    /// given, the times, `type` and `includeQuantityBasedPartialRefund` are the first page's.
    public var token: String?
    /// 0 one-time products only (the default), 1 subscriptions too.
    public var type: Int?
    /// Whether quantity-based partial refunds are listed (with `voidedQuantity`).
    public var includeQuantityBasedPartialRefund: Bool?

    /// Creates a query.
    public init(
        startTime: Int64? = nil, endTime: Int64? = nil, maxResults: Int? = nil, token: String? = nil,
        type: Int? = nil, includeQuantityBasedPartialRefund: Bool? = nil
    ) {
        self.startTime = startTime
        self.endTime = endTime
        self.maxResults = maxResults
        self.token = token
        self.type = type
        self.includeQuantityBasedPartialRefund = includeQuantityBasedPartialRefund
    }
}

/// What a `nextPageToken` carries: where the next page starts and the first page's filter.
struct VoidedPageToken: Codable, Hashable {
    /// The index in the voided records of the next page's first record.
    var index: Int
    var startTime: Int64
    var endTime: Int64
    var type: Int
    var partial: Bool

    /// The opaque text: base64url of the JSON.
    var text: String {
        ((try? JSONEncoder().encode(self)) ?? Data()).base64URLEncodedString
    }

    /// A token read back; `nil` when `text` is not one the emulator made.
    init?(text: String) {
        guard let data = Data(base64URLEncoded: text),
            let token = try? JSONDecoder().decode(VoidedPageToken.self, from: data), token.index >= 0,
            token.startTime <= token.endTime
        else { return nil }
        self = token
    }

    init(index: Int, startTime: Int64, endTime: Int64, type: Int, partial: Bool) {
        self.index = index
        self.startTime = startTime
        self.endTime = endTime
        self.type = type
        self.partial = partial
    }
}

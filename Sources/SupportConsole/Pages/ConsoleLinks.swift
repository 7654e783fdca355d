import Ledger

/// The console's own links to its pages, with ids percent-encoded as one path segment.
enum ConsoleLinks {
    /// `/console/players/{playerId}`.
    static func player(_ playerId: String) -> String {
        "/console/players/" + ConsoleURL.pathSegment(playerId)
    }

    /// `/console/transactions/{transactionId}`.
    static func transaction(_ transactionId: String) -> String {
        "/console/transactions/" + ConsoleURL.pathSegment(transactionId)
    }

    /// The page of a purchase's original transaction id: Apple's is a transaction page; a
    /// Google Play purchase token is searched for (``SupportPages/searchHits(_:)`` lists its
    /// purchases, renewals included).
    static func original(_ originalTransactionId: String, store: Store) -> String {
        switch store {
        case .appStore: transaction(originalTransactionId)
        case .googlePlay: "/console/search?q=" + ConsoleURL.queryValue(originalTransactionId)
        }
    }

    /// `/console/orders/{orderId}`.
    static func order(_ orderId: String) -> String {
        "/console/orders/" + ConsoleURL.pathSegment(orderId)
    }

    /// `/console/apple-orders/{appleOrderId}`.
    static func appleOrder(_ appleOrderId: String) -> String {
        "/console/apple-orders/" + ConsoleURL.pathSegment(appleOrderId)
    }

    /// `/console/owed/{transactionId}/deliver`, where a deliver form posts.
    static func deliver(_ transactionId: String) -> String {
        "/console/owed/" + ConsoleURL.pathSegment(transactionId) + "/deliver"
    }
}

import Foundation

extension OwedTransaction {
    /// The detail of an `awaiting_report` history event: why the charge waits, its
    /// product, how the server learned of it, and, when Apple's signed data says, the
    /// price, currency, purchase date (milliseconds since 1970) and app account token.
    /// ``SupportReads/owedTransactions(learnedBefore:limit:)`` reads it back.
    public static func detail(
        reason: String, productId: String, source: String, price: Int64?, currency: String?, purchaseDate: Date?,
        appAccountToken: String?
    ) -> [String: String] {
        var detail = ["reason": reason, "productId": productId, "source": source]
        detail["price"] = price.map(String.init)
        detail["currency"] = currency
        detail["purchaseDate"] = purchaseDate.map { String($0.ledgerMilliseconds) }
        detail["appAccountToken"] = appAccountToken
        return detail
    }

    /// The charge's price, currency, purchase date and token as `detail` records them; each
    /// `nil` when missing or not readable (events recorded before the server kept them, or
    /// damaged ones). A price needs its currency, and the reverse.
    mutating func read(charge detail: [String: String]) {
        if let price = detail["price"].flatMap({ Int64($0) }), let currency = detail["currency"],
            Self.isCurrencyCode(currency)
        {
            self.price = price
            self.currency = currency
        }
        if let milliseconds = detail["purchaseDate"].flatMap({ Int64($0) }) {
            purchaseDate = Date(ledgerMilliseconds: milliseconds)
        }
        if let token = detail["appAccountToken"], UUID(uuidString: token) != nil {
            appAccountToken = token.lowercased()
        }
    }

    /// Whether `text` is three ASCII capital letters, as ISO 4217 codes are.
    private static func isCurrencyCode(_ text: String) -> Bool {
        text.utf8.count == 3 && text.utf8.allSatisfy { (0x41...0x5A).contains($0) }
    }
}

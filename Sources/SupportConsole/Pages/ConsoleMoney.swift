import Foundation

/// An amount of money as Apple and the catalog write it: milliunits of an ISO 4217
/// currency (990 USD is 0.99 USD).
struct ConsoleMoney: Sendable, Hashable {
    /// The amount in thousandths of the currency's unit.
    var milliunits: Int64
    /// The ISO 4217 code, e.g. `USD`.
    var currency: String

    /// Currencies whose smallest unit is the whole unit (ISO 4217 minor unit 0).
    private static let noDecimals: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV",
        "XAF", "XOF", "XPF",
    ]
    /// Currencies with three decimals (ISO 4217 minor unit 3).
    private static let threeDecimals: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]

    /// `0.99 USD`, `1,200 JPY`, `−3.00 USD` (the minus sign U+2212): the currency's own
    /// decimals, rounded half away from zero, the same in every language.
    var formatted: String { number + " " + currency }

    /// ``formatted`` without the currency code: `0.99`, `1,200`, `−3.00`.
    var number: String {
        let decimals = Self.noDecimals.contains(currency) ? 0 : Self.threeDecimals.contains(currency) ? 3 : 2
        let divisor: Int64 = decimals == 0 ? 1_000 : decimals == 2 ? 10 : 1
        let magnitude = milliunits.magnitude
        let minor = (magnitude + UInt64(divisor / 2)) / UInt64(divisor)
        let scale = UInt64(decimals == 0 ? 1 : decimals == 2 ? 100 : 1_000)
        let whole = ConsoleFormat.count(Int(clamping: minor / scale))
        var text = whole
        if decimals > 0 {
            let fraction = String(minor % scale)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return (milliunits < 0 && minor > 0 ? "\u{2212}" : "") + text
    }

    /// `share` (milliunits of the whole: 100,000 is all of it, as Apple writes refunds) of
    /// this amount, rounded down to a milliunit.
    func share(_ share: Int) -> ConsoleMoney {
        let (product, overflow) = milliunits.multipliedReportingOverflow(by: Int64(share))
        let part = overflow ? milliunits / 100_000 * Int64(share) : product / 100_000
        return ConsoleMoney(milliunits: part, currency: currency)
    }

    /// Amounts summed per currency, by currency code: `9.90 USD · 68.00 CNY`, or nil for none.
    static func total(_ amounts: [ConsoleMoney]) -> String? {
        let sums = Dictionary(amounts.map { ($0.currency, $0.milliunits) }, uniquingKeysWith: { $0 &+ $1 })
        guard !sums.isEmpty else { return nil }
        return sums.sorted { $0.key < $1.key }
            .map { ConsoleMoney(milliunits: $0.value, currency: $0.key).formatted }
            .joined(separator: " · ")
    }
}

extension SupportPages {
    /// The catalog's list price of `quantity` units of `productId` (what the console counts
    /// money by: the ledger keeps no prices), or nil when the catalog names none.
    func listPrice(_ productId: String, quantity: Int = 1) -> ConsoleMoney? {
        guard let product = server.configuration.catalog.product(productId), let price = product.price,
            let currency = product.currency
        else { return nil }
        let (total, overflow) = price.multipliedReportingOverflow(by: Int64(quantity))
        return overflow ? nil : ConsoleMoney(milliunits: total, currency: currency)
    }
}

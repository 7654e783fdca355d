import Testing

@testable import SupportConsole

/// How the console writes money: Apple's and the catalog's milliunits in the currency's
/// own decimals.
@Suite("Console money")
struct ConsoleMoneyTests {
    @Test("milliunits read in the currency's decimals, rounded half away from zero")
    func formatted() {
        #expect(ConsoleMoney(milliunits: 990, currency: "USD").formatted == "0.99 USD")
        #expect(ConsoleMoney(milliunits: 9_990, currency: "USD").formatted == "9.99 USD")
        #expect(ConsoleMoney(milliunits: 1_234_565, currency: "EUR").formatted == "1,234.57 EUR")
        #expect(ConsoleMoney(milliunits: 120_000, currency: "JPY").formatted == "120 JPY")
        #expect(ConsoleMoney(milliunits: 1_500, currency: "KWD").formatted == "1.500 KWD")
        #expect(ConsoleMoney(milliunits: -2_970, currency: "USD").formatted == "\u{2212}2.97 USD")
        #expect(ConsoleMoney(milliunits: -4, currency: "USD").formatted == "0.00 USD")
        #expect(ConsoleMoney(milliunits: .min, currency: "USD").formatted.hasPrefix("\u{2212}"))
    }

    @Test("a refunded share of a price, and totals per currency")
    func shares() {
        let price = ConsoleMoney(milliunits: 9_990, currency: "USD")
        #expect(price.share(30_000) == ConsoleMoney(milliunits: 2_997, currency: "USD"))
        #expect(price.share(100_000) == price)
        #expect(price.share(0).milliunits == 0)
        #expect(ConsoleMoney(milliunits: .max, currency: "USD").share(50_000).milliunits > 0)
        let total = ConsoleMoney.total([
            price, ConsoleMoney(milliunits: 68_000, currency: "CNY"), ConsoleMoney(milliunits: 10, currency: "USD"),
        ])
        #expect(total == "68.00 CNY · 10.00 USD")
        #expect(ConsoleMoney.total([]) == nil)
    }
}

import Foundation
import Testing

@testable import Ledger

/// The ledger writes its flat JSON columns itself; the text must be what Foundation's
/// encoder (sorted keys, unescaped slashes) gives, which older rows hold and the support
/// console's flag search (a quoted flag inside the text) relies on.
@Suite("The ledger's JSON text")
struct LedgerJSONWriterTests {
    private static func encoderText(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Every control character, the escaped and unescaped punctuation, non-ASCII text.
    private static let awkward =
        String((0..<0x20).map { Character(Unicode.Scalar($0)!) }) + "q\"b\\s/\u{7F}é😀\u{2028}"

    @Test("strings: keys sorted by code point, escapes as Foundation's")
    func strings() throws {
        let object = [
            "b": "1", "B": "2", "a10": "3", "a2": "4", "_": awkward(), "é": "", "Z": "z", "a-b": "x\ny",
            Self.awkward: "key", "e\u{301}clair": "decomposed, sorted by its bytes before fudge", "fudge": "f",
        ]
        #expect(LedgerJSON.text(object) == (try Self.encoderText(object)))
        #expect(LedgerJSON.text([String: String]()) == (try Self.encoderText([String: String]())))
    }

    @Test("integers, including the extremes")
    func integers() throws {
        let object: [String: Int64] = [
            "coins": 100, "gems": -5, "min": .min, "max": .max, "zero": 0, "e\u{301}clair": 1, "fudge": 2,
        ]
        #expect(LedgerJSON.text(object) == (try Self.encoderText(object)))
    }

    @Test("flags: a sorted array")
    func flags() throws {
        let flags: Set<String> = ["unbound", "order_already_fulfilled", Self.awkward]
        #expect(LedgerJSON.flags(flags) == (try Self.encoderText(flags.sorted())))
        #expect(LedgerJSON.flags([]) == "[]")
    }

    @Test("a delivery message: the bytes of Foundation's encoder with sorted keys (slashes escaped)")
    func deliveryMessage() throws {
        var purchase = Purchase(
            store: .appStore,
            transactionId: "2000000123/4", originalTransactionId: Self.awkward, playerId: "player/1",
            orderId: "order-1", productId: "com.example.coins/100", quantity: 3, environment: .sandbox,
            source: .clientSignedTransaction, flags: ["unbound", "sandbox_in_production"],
            grants: ["coins": 300, "Gems/x": .max], status: .delivered,
            purchaseDate: Date(timeIntervalSince1970: 1_700_000_000.123), deliveredAt: Date())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for orderId in ["order-1", nil] {
            purchase.orderId = orderId
            let message = DeliveryMessage(purchase: purchase)
            #expect(try message.encoded() == (try encoder.encode(message)), "orderId \(orderId ?? "nil")")
            #expect(try DeliveryMessage.decode(try message.encoded()) == message)
        }
    }

    private func awkward() -> String { Self.awkward }
}

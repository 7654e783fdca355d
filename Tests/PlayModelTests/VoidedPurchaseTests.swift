import Foundation
import PlayModel
import Testing

@Suite struct VoidedPurchaseTests {
    /// Google's VoidedPurchasesListResponse with every VoidedPurchase field: the times are
    /// int64s as strings, the codes integers.
    static let sample = """
        {
          "tokenPagination": {"nextPageToken": "next"},
          "voidedPurchases": [{
            "kind": "androidpublisher#voidedPurchase",
            "purchaseToken": "opaque",
            "purchaseTimeMillis": "1764400000123",
            "voidedTimeMillis": "1764400999000",
            "orderId": "GPA.3388-1422-5127-95310",
            "voidedSource": 1,
            "voidedReason": 8,
            "voidedQuantity": 2
          }]
        }
        """

    @Test func decodesEveryDocumentedField() throws {
        let list = try JSONDecoder().decode(VoidedPurchasesListResponse.self, from: Data(Self.sample.utf8))
        #expect(list.tokenPagination?.nextPageToken == "next")
        let voided = try #require(list.voidedPurchases?.first)
        #expect(voided.kind == VoidedPurchase.kindValue)
        #expect(voided.purchaseToken == "opaque")
        #expect(voided.purchaseTimeMillis == "1764400000123")
        #expect(voided.voidedTimeMillis == "1764400999000")
        #expect(voided.orderId == "GPA.3388-1422-5127-95310")
        #expect(voided.voidedSource == VoidedSource.developer)
        #expect(voided.voidedReason == VoidedReason.unacknowledgedPurchase)
        #expect(voided.voidedQuantity == 2)
    }

    /// Encoded, absent fields are left out (no `null`), and the times stay strings.
    @Test func encodesGooglesShape() throws {
        let voided = VoidedPurchase(
            purchaseToken: "t", purchaseTimeMillis: "1", voidedTimeMillis: "2", orderId: "GPA.1",
            voidedSource: VoidedSource.google, voidedReason: VoidedReason.chargeback)
        let object = try #require(
            try JSONSerialization.jsonObject(
                with: JSONEncoder().encode(VoidedPurchasesListResponse(voidedPurchases: [voided])))
                as? [String: Any])
        #expect(object["tokenPagination"] == nil)
        let first = try #require((object["voidedPurchases"] as? [[String: Any]])?.first)
        #expect(first["kind"] as? String == "androidpublisher#voidedPurchase")
        #expect(first["purchaseTimeMillis"] as? String == "1")
        #expect(first["voidedTimeMillis"] as? String == "2")
        #expect(first["voidedSource"] as? Int == 2)
        #expect(first["voidedReason"] as? Int == 7)
        #expect(first.keys.contains("voidedQuantity") == false)
        #expect(
            Set(first.keys) == [
                "kind", "purchaseToken", "purchaseTimeMillis", "voidedTimeMillis", "orderId", "voidedSource",
                "voidedReason",
            ])
    }
}

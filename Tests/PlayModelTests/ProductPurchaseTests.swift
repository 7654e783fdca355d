import Foundation
import PlayModel
import Testing

@Suite struct ProductPurchaseTests {
    /// Every field of Google's ProductPurchase JSON representation, with values of the documented types.
    static let sample = """
        {
          "kind": "androidpublisher#productPurchase",
          "purchaseTimeMillis": "1764400000123",
          "purchaseState": 0,
          "consumptionState": 0,
          "developerPayload": "",
          "orderId": "GPA.3388-1422-5127-95310",
          "purchaseType": 0,
          "acknowledgementState": 1,
          "purchaseToken": "opaque-token-up-to-150-characters",
          "productId": "coins.100",
          "quantity": 2,
          "obfuscatedExternalAccountId": "order-7f3a",
          "obfuscatedExternalProfileId": "profile-1",
          "regionCode": "US",
          "refundableQuantity": 2
        }
        """

    @Test func decodesEveryDocumentedField() throws {
        let purchase = try JSONDecoder().decode(ProductPurchase.self, from: Data(Self.sample.utf8))
        #expect(purchase.kind == ProductPurchase.kindValue)
        #expect(purchase.purchaseTimeMillis == "1764400000123")
        #expect(purchase.purchaseTime == Date(timeIntervalSince1970: 1_764_400_000.123))
        #expect(purchase.purchaseState == PurchaseState.purchased)
        #expect(purchase.consumptionState == ConsumptionState.yetToBeConsumed)
        #expect(purchase.developerPayload == "")
        #expect(purchase.orderId == "GPA.3388-1422-5127-95310")
        #expect(purchase.purchaseType == 0)
        #expect(purchase.acknowledgementState == AcknowledgementState.acknowledged)
        #expect(purchase.purchaseToken == "opaque-token-up-to-150-characters")
        #expect(purchase.productId == "coins.100")
        #expect(purchase.quantity == 2)
        #expect(purchase.obfuscatedExternalAccountId == "order-7f3a")
        #expect(purchase.obfuscatedExternalProfileId == "profile-1")
        #expect(purchase.regionCode == "US")
        #expect(purchase.refundableQuantity == 2)
    }

    /// A promo-code purchase has no orderId, and a real-money one no purchaseType: both absent.
    @Test func omittedFieldsStayAbsentBothWays() throws {
        let json = #"{"kind":"androidpublisher#productPurchase","purchaseTimeMillis":"1","purchaseState":2}"#
        let purchase = try JSONDecoder().decode(ProductPurchase.self, from: Data(json.utf8))
        #expect(purchase.orderId == nil)
        #expect(purchase.purchaseType == nil)
        #expect(purchase.purchaseState == PurchaseState.pending)
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(purchase)) as? [String: Any]
        #expect(Set(encoded?.keys ?? [:].keys) == ["kind", "purchaseTimeMillis", "purchaseState"])
    }

    /// purchaseTimeMillis goes out as a string, Google's way of carrying an int64.
    @Test func purchaseTimeMillisIsAStringOnTheWire() throws {
        let purchase = ProductPurchase(purchaseTimeMillis: "1764400000123", quantity: 1)
        let encoded = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(purchase)) as? [String: Any])
        #expect(encoded["purchaseTimeMillis"] as? String == "1764400000123")
        #expect(encoded["kind"] as? String == "androidpublisher#productPurchase")
    }

    @Test func acknowledgeRequestCarriesDeveloperPayload() throws {
        let request = try JSONDecoder().decode(
            ProductPurchasesAcknowledgeRequest.self, from: Data(#"{"developerPayload":"order 42"}"#.utf8))
        #expect(request.developerPayload == "order 42")
        let empty = try JSONDecoder().decode(ProductPurchasesAcknowledgeRequest.self, from: Data("{}".utf8))
        #expect(empty.developerPayload == nil)
    }
}

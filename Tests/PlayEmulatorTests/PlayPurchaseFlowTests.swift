import Crypto
import Foundation
import PlayEmulator
import PlayModel
import PlaySigning
import Testing
import _CryptoExtras

@Suite struct PlayPurchaseFlowTests {
    /// A device buys; the server exchanges the service account's assertion for a token,
    /// reads the purchase, acknowledges it, then consumes it; each read shows the change.
    @Test func purchaseAcknowledgeConsume() async throws {
        try await PlayFixture().live { play in
            let (bought, purchase) = try await play.call(
                .post, "/emulator/v1/play/devices/phone-1/purchases",
                json: PlayDevicePurchaseRequest(productId: "coins100", obfuscatedAccountId: "order-42"))
            #expect(bought == .ok, "\(purchase)")
            let token = try #require(purchase["purchaseToken"] as? String)
            let orderId = try #require(purchase["orderId"] as? String)
            #expect(orderId.wholeMatch(of: /GPA\.\d{4}-\d{4}-\d{4}-\d{5}/) != nil)
            #expect(purchase["purchaseState"] as? Int == 1)

            let access = try await play.accessToken()
            let (read, first) = try await play.call(.get, PlayClient.tokenPath(token), bearer: access)
            #expect(read == .ok, "\(first)")
            #expect(first["kind"] as? String == "androidpublisher#productPurchase")
            #expect(first["obfuscatedExternalAccountId"] as? String == "order-42")
            #expect(first["orderId"] as? String == orderId)
            #expect(first["purchaseToken"] as? String == token)
            #expect(first["productId"] as? String == "coins100")
            #expect(first["purchaseState"] as? Int == 0)
            #expect(first["acknowledgementState"] as? Int == 0)
            #expect(first["consumptionState"] as? Int == 0)
            #expect(first["quantity"] as? Int == 1)
            let millis = try #require(first["purchaseTimeMillis"] as? String)
            let purchasedAt = try #require(Int64(millis))
            #expect(abs(Double(purchasedAt) / 1000 - Date().timeIntervalSince1970) < 60)

            let (acknowledged, _) = try await play.call(
                .post, PlayClient.tokenPath(token) + ":acknowledge",
                json: ProductPurchasesAcknowledgeRequest(developerPayload: "delivered"), bearer: access)
            #expect(acknowledged == .noContent)
            let (_, second) = try await play.call(.get, PlayClient.tokenPath(token), bearer: access)
            #expect(second["acknowledgementState"] as? Int == 1)
            #expect(second["developerPayload"] as? String == "delivered")
            #expect(second["consumptionState"] as? Int == 0)
            // A retried acknowledgement succeeds and changes nothing.
            let (again, _) = try await play.call(.post, PlayClient.tokenPath(token) + ":acknowledge", bearer: access)
            #expect(again == .noContent)

            let (consumed, _) = try await play.call(.post, PlayClient.tokenPath(token) + ":consume", bearer: access)
            #expect(consumed == .noContent)
            let (_, third) = try await play.call(.get, PlayClient.tokenPath(token), bearer: access)
            #expect(third["consumptionState"] as? Int == 1)
            #expect(third["acknowledgementState"] as? Int == 1)

            // Consumed twice: the purchase is not in a valid state.
            let (twice, error) = try await play.call(.post, PlayClient.tokenPath(token) + ":consume", bearer: access)
            #expect(twice == .badRequest)
            #expect(reason(error) == "invalidPurchaseState")
        }
    }

    /// The device's purchase JSON is signed with the license key the emulator publishes.
    @Test func theDevicePurchaseIsSignedWithTheLicenseKey() async throws {
        try await PlayFixture().live { play in
            let (_, purchase) = try await play.call(
                .post, "/emulator/v1/play/devices/phone-2/purchases",
                json: PlayDevicePurchaseRequest(
                    productId: "levelpack1", obfuscatedAccountId: "a", obfuscatedProfileId: "p"))
            let (status, license) = try await play.call(.get, "/emulator/v1/play/license-key")
            #expect(status == .ok)
            #expect(license["packageName"] as? String == "com.example.game")
            let publicKey = try #require(license["publicKey"] as? String)
            let der = try #require(Data(base64Encoded: publicKey))
            let key = try _RSA.Signing.PublicKey(derRepresentation: der)
            let json = try #require(purchase["originalJson"] as? String)
            let signatureText = try #require(purchase["signature"] as? String)
            let signature = try #require(Data(base64Encoded: signatureText))
            #expect(
                key.isValidSignature(
                    .init(rawRepresentation: signature), for: Insecure.SHA1.hash(data: Data(json.utf8)),
                    padding: .insecurePKCS1v1_5))
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            #expect(fields["purchaseToken"] as? String == purchase["purchaseToken"] as? String)
            #expect(fields["packageName"] as? String == "com.example.game")
            #expect(fields["productId"] as? String == "levelpack1")
            #expect(fields["obfuscatedAccountId"] as? String == "a")
            #expect(fields["obfuscatedProfileId"] as? String == "p")
            #expect(fields["acknowledged"] as? Bool == false)
        }
    }

    /// A device cannot buy a product again until it consumed the last purchase of it.
    @Test func anUnconsumedProductIsAlreadyOwned() async throws {
        try await PlayFixture().live { play in
            let path = "/emulator/v1/play/devices/phone-3/purchases"
            let (first, purchase) = try await play.call(
                .post, path, json: PlayDevicePurchaseRequest(productId: "potion"))
            #expect(first == .ok)
            let (second, error) = try await play.call(.post, path, json: PlayDevicePurchaseRequest(productId: "potion"))
            #expect(second == .conflict)
            #expect(error["error"] as? String == "item_already_owned")
            let access = try await play.accessToken()
            let token = try #require(purchase["purchaseToken"] as? String)
            let (consumed, _) = try await play.call(
                .post, PlayClient.tokenPath(token, product: "potion") + ":consume", bearer: access)
            #expect(consumed == .noContent)
            let (third, _) = try await play.call(.post, path, json: PlayDevicePurchaseRequest(productId: "potion"))
            #expect(third == .ok)
        }
    }

    /// A pending purchase cannot be acknowledged or consumed: Google's 400 invalidPurchaseState.
    @Test func aPendingPurchaseCannotBeAcknowledged() async throws {
        try await PlayFixture().live { play in
            let (_, purchase) = try await play.call(
                .post, "/emulator/v1/play/devices/phone-4/purchases",
                json: PlayDevicePurchaseRequest(productId: "coins100", pending: true))
            #expect(purchase["purchaseState"] as? Int == 2)
            let token = try #require(purchase["purchaseToken"] as? String)
            let access = try await play.accessToken()
            let (_, read) = try await play.call(.get, PlayClient.tokenPath(token), bearer: access)
            #expect(read["purchaseState"] as? Int == 2)
            for method in [":acknowledge", ":consume"] {
                let (status, error) = try await play.call(.post, PlayClient.tokenPath(token) + method, bearer: access)
                #expect(status == .badRequest)
                let body = try #require(error["error"] as? [String: Any])
                #expect(body["code"] as? Int == 400)
                #expect(
                    body["message"] as? String
                        == "The purchase is not in a valid state to perform the desired operation.")
                #expect(reason(error) == "invalidPurchaseState")
            }
        }
    }

    @Test func devicePurchasesAreValidated() async throws {
        try await PlayFixture().live { play in
            let path = "/emulator/v1/play/devices/phone-5/purchases"
            let (unknown, error) = try await play.call(.post, path, json: PlayDevicePurchaseRequest(productId: "nope"))
            #expect(unknown == .notFound)
            #expect(error["error"] as? String == "unknown_product")
            let (nonRenewing, refused) = try await play.call(
                .post, path, json: PlayDevicePurchaseRequest(productId: "seasonpass"))
            #expect(nonRenewing == .badRequest)
            #expect(refused["error"] as? String == "not_a_one_time_product")
            let (long, _) = try await play.call(
                .post, path,
                json: PlayDevicePurchaseRequest(
                    productId: "coins100", obfuscatedAccountId: String(repeating: "x", count: 65)))
            #expect(long == .badRequest)
        }
    }
}

/// The `reason` of a Google error envelope's first detail.
func reason(_ body: [String: Any]) -> String? {
    ((body["error"] as? [String: Any])?["errors"] as? [[String: Any]])?.first?["reason"] as? String
}

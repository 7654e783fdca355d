import Foundation
import PlayEmulator
import PlayModel
import Testing

@Suite struct PlayDeviceControlTests {
    /// A pending purchase is 2 at the API until the payment completes (0), then the device
    /// acknowledges and consumes it; `queryPurchases` lists it until it is consumed.
    @Test func aPendingPurchaseCompletesThenTheDeviceAcknowledgesAndConsumes() async throws {
        try await PlayFixture().live { play in
            let device = "/emulator/v1/play/devices/tab-1/purchases"
            let (_, bought) = try await play.call(
                .post, device, json: PlayDevicePurchaseRequest(productId: "coins100", pending: true))
            let token = try #require(bought["purchaseToken"] as? String)
            let access = try await play.accessToken()
            let (_, pending) = try await play.call(.get, PlayClient.tokenPath(token), bearer: access)
            #expect(pending["purchaseState"] as? Int == 2)
            #expect(pending["refundableQuantity"] as? Int == 0)

            // The device cannot acknowledge a pending purchase either.
            let (early, refused) = try await play.call(.post, "\(device)/\(token):acknowledge")
            #expect(early == .badRequest)
            #expect(refused["error"] as? String == "invalid_purchase_state")

            let (listed, list) = try await play.call(.get, device)
            #expect(listed == .ok)
            let held = try #require(list["purchases"] as? [[String: Any]])
            #expect(held.map { $0["purchaseToken"] as? String } == [token])
            #expect(held.first?["purchaseState"] as? Int == 2)

            let (completed, afterCompletion) = try await play.call(.post, "\(device)/\(token):complete")
            #expect(completed == .ok, "\(afterCompletion)")
            #expect(afterCompletion["purchaseState"] as? Int == 1)
            let (_, paid) = try await play.call(.get, PlayClient.tokenPath(token), bearer: access)
            #expect(paid["purchaseState"] as? Int == 0)
            #expect(paid["acknowledgementState"] as? Int == 0)
            #expect(paid["refundableQuantity"] as? Int == 1)

            let (acknowledged, afterAcknowledgement) = try await play.call(.post, "\(device)/\(token):acknowledge")
            #expect(acknowledged == .ok)
            let json = try #require(afterAcknowledgement["originalJson"] as? String)
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            #expect(fields["acknowledged"] as? Bool == true)
            let (_, read) = try await play.call(.get, PlayClient.tokenPath(token), bearer: access)
            #expect(read["acknowledgementState"] as? Int == 1)
            #expect(read["consumptionState"] as? Int == 0)

            let (consumed, _) = try await play.call(.post, "\(device)/\(token):consume")
            #expect(consumed == .ok)
            let (_, gone) = try await play.call(.get, PlayClient.tokenPath(token), bearer: access)
            #expect(gone["consumptionState"] as? Int == 1)
            let (again, twice) = try await play.call(.post, "\(device)/\(token):consume")
            #expect(again == .badRequest)
            #expect(twice["error"] as? String == "invalid_purchase_state")
            let (_, empty) = try await play.call(.get, device)
            #expect((empty["purchases"] as? [Any])?.isEmpty == true)
        }
    }

    /// A pending purchase whose payment never comes is canceled: 1 at the API, no longer
    /// held, nothing voided; it can no longer complete, and the device can buy again.
    @Test func aPendingPurchaseIsCanceled() async throws {
        try await PlayFixture().live { play in
            let device = "/emulator/v1/play/devices/tab-2/purchases"
            let (_, bought) = try await play.call(
                .post, device, json: PlayDevicePurchaseRequest(productId: "levelpack1", pending: true))
            let token = try #require(bought["purchaseToken"] as? String)
            let (canceled, answer) = try await play.call(.post, "\(device)/\(token):cancel")
            #expect(canceled == .ok, "\(answer)")
            #expect(answer["purchaseState"] as? Int == 0)
            let access = try await play.accessToken()
            let (_, read) = try await play.call(
                .get, PlayClient.tokenPath(token, product: "levelpack1"), bearer: access)
            #expect(read["purchaseState"] as? Int == 1)
            let (late, error) = try await play.call(.post, "\(device)/\(token):complete")
            #expect(late == .badRequest)
            #expect(error["error"] as? String == "invalid_purchase_state")
            let (_, list) = try await play.call(.get, device)
            #expect((list["purchases"] as? [Any])?.isEmpty == true)
            let (_, voided) = try await play.call(
                .get, "/androidpublisher/v3/applications/com.example.game/purchases/voidedpurchases", bearer: access)
            #expect((voided["voidedPurchases"] as? [Any])?.isEmpty == true)
            let (rebought, _) = try await play.call(
                .post, device, json: PlayDevicePurchaseRequest(productId: "levelpack1"))
            #expect(rebought == .ok)
        }
    }

    /// Another device's token, an unknown token and an unknown action are refused.
    @Test func controlRoutesRefuseWhatTheyDoNotKnow() async throws {
        try await PlayFixture().live { play in
            let (_, bought) = try await play.call(
                .post, "/emulator/v1/play/devices/tab-3/purchases", json: PlayDevicePurchaseRequest(productId: "potion")
            )
            let token = try #require(bought["purchaseToken"] as? String)
            let (other, error) = try await play.call(
                .post, "/emulator/v1/play/devices/tab-4/purchases/\(token):consume")
            #expect(other == .notFound)
            #expect(error["error"] as? String == "unknown_purchase")
            let (unknown, _) = try await play.call(.post, "/emulator/v1/play/devices/tab-3/purchases/nope:consume")
            #expect(unknown == .notFound)
            let (action, named) = try await play.call(.post, "/emulator/v1/play/devices/tab-3/purchases/\(token):sell")
            #expect(action == .notFound)
            #expect(named["error"] as? String == "unknown_action")
            let (complete, state) = try await play.call(
                .post, "/emulator/v1/play/devices/tab-3/purchases/\(token):complete")
            #expect(complete == .badRequest)
            #expect(state["error"] as? String == "invalid_purchase_state")
        }
    }
}

import AppStoreEmulator
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Promoted In-App Purchases: `POST`, `GET` and `DELETE …/devices/{deviceId}/promotions`.
struct PromotionRoutesTests {
    @Test("a promotion waits for its device's app until taken, survives a restart, and is taken once")
    func promoteListTake() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let box = Made()
        try await fixture.live { _, client in
            let unknown = try await client.execute(
                uri: "/emulator/v1/devices/promo-phone/promotions", method: .post,
                body: JSON.body(PromotionRequest(productId: "nothing")))
            #expect(unknown.status == .notFound)
            #expect(try JSON.object(unknown.body)["error"] as? String == "unknown_product")

            let made = try await client.execute(
                uri: "/emulator/v1/devices/promo-phone/promotions", method: .post,
                body: JSON.body(PromotionRequest(productId: "coins500")))
            #expect(made.status == .created)
            let promotion = try JSON.decode(EmulatedPromotion.self, made.body)
            #expect(promotion.productId == "coins500" && promotion.deviceId == "promo-phone")
            await box.set(promotion.promotionId)
            let promotionId = promotion.promotionId

            let other = try await client.execute(uri: "/emulator/v1/devices/promo-tablet/promotions", method: .get)
            #expect(try JSON.decode([EmulatedPromotion].self, other.body).isEmpty, "another device's app sees none")
            let wrongDevice = try await client.execute(
                uri: "/emulator/v1/devices/promo-tablet/promotions/\(promotionId)", method: .delete)
            #expect(wrongDevice.status == .notFound)
        }

        await fixture.emulator.shutdown()
        let promotionId = await box.promotionId
        let restarted = try await EmulatorFixture(directory: fixture.directory)
        try await restarted.live { _, client in
            let listed = try await client.execute(uri: "/emulator/v1/devices/promo-phone/promotions", method: .get)
            #expect(try JSON.decode([EmulatedPromotion].self, listed.body).map(\.promotionId) == [promotionId])
            let taken = try await client.execute(
                uri: "/emulator/v1/devices/promo-phone/promotions/\(promotionId)", method: .delete)
            #expect(taken.status == .ok)
            let again = try await client.execute(
                uri: "/emulator/v1/devices/promo-phone/promotions/\(promotionId)", method: .delete)
            #expect(again.status == .notFound)
            #expect(try JSON.object(again.body)["error"] as? String == "unknown_promotion")
            let empty = try await client.execute(uri: "/emulator/v1/devices/promo-phone/promotions", method: .get)
            #expect(try JSON.decode([EmulatedPromotion].self, empty.body).isEmpty)
        }
    }
}

/// The promotion a test made, read after the server that made it is gone.
private actor Made {
    private(set) var promotionId = ""
    func set(_ promotionId: String) { self.promotionId = promotionId }
}

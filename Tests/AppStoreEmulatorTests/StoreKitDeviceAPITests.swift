import AppStoreEmulator
import AppStoreModel
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The device endpoints StoreKit for Linux reads (`Transaction.all`, `AppTransaction.shared`,
/// `Product.SubscriptionInfo.status`) and the catalog a `.storekit` file extends.
struct StoreKitDeviceAPITests {
    @Test("GET …/transactions lists the account's transactions, refunded and other devices' too")
    func allTransactions() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { _, client in
            for device in ["sk-phone", "sk-tablet"] {
                _ = try await client.execute(
                    uri: "/emulator/v1/devices/\(device)", method: .put,
                    body: JSON.body(DeviceSettings(appleAccount: "sk-account")))
            }
            var ids: [String] = []
            for (device, product) in [("sk-phone", "coins100"), ("sk-tablet", "levelpack1")] {
                let bought = try await client.execute(
                    uri: "/emulator/v1/devices/\(device)/purchases", method: .post,
                    body: JSON.body(PurchaseRequest(productId: product)))
                ids.append(try #require(try JSON.decode(PurchaseResult.self, bought.body).transactionId))
            }
            _ = try await client.execute(uri: "/emulator/v1/transactions/\(ids[0])/refund", method: .post)
            let all = try await client.execute(uri: "/emulator/v1/devices/sk-phone/transactions", method: .get)
            #expect(all.status == .ok)
            let list = try JSON.decode([DeviceTransaction].self, all.body)
            #expect(list.map(\.transactionId) == ids)
            #expect(list.first?.signedTransaction.isEmpty == false)
            let other = try await client.execute(uri: "/emulator/v1/devices/nobody/transactions", method: .get)
            #expect(try JSON.decode([DeviceTransaction].self, other.body).isEmpty)
        }
    }

    @Test("GET …/app-transaction is 404 before a purchase, a JWS after; statuses list the groups")
    func appTransactionAndStatuses() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { _, client in
            let before = try await client.execute(uri: "/emulator/v1/devices/sk-new/app-transaction", method: .get)
            #expect(before.status == .notFound)
            #expect(try JSON.object(before.body)["error"] as? String == "no_app_transaction")
            let noStatuses = try await client.execute(
                uri: "/emulator/v1/devices/sk-new/subscription-statuses", method: .get)
            #expect(try JSON.decode(StatusResponse.self, noStatuses.body).data?.isEmpty == true)

            _ = try await client.execute(
                uri: "/emulator/v1/devices/sk-new/purchases", method: .post,
                body: JSON.body(PurchaseRequest(productId: "vip.monthly")))
            let after = try await client.execute(uri: "/emulator/v1/devices/sk-new/app-transaction", method: .get)
            #expect(after.status == .ok)
            let signed = try #require(try JSON.object(after.body)["signedAppTransaction"] as? String)
            #expect(signed.split(separator: ".").count == 3)
            let statuses = try await client.execute(
                uri: "/emulator/v1/devices/sk-new/subscription-statuses", method: .get)
            let data = try #require(try JSON.decode(StatusResponse.self, statuses.body).data)
            #expect(data.map(\.subscriptionGroupIdentifier) == ["20000001"])
            #expect(data.first?.lastTransactions?.first?.status == .active)
        }
    }

    @Test("PUT /products adds and replaces products; a bad one adds nothing")
    func addProducts() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { _, client in
            let added = try await client.execute(
                uri: "/emulator/v1/products", method: .put,
                body: JSON.body([
                    EmulatorProduct(
                        productId: "gems10", type: .consumable, price: 1_990, displayName: "10 Gems",
                        localizedDescription: "A handful of gems"),
                    EmulatorProduct(productId: "coins100", type: .consumable, price: 1_090, displayName: "100 Coins"),
                ]))
            #expect(added.status == .ok)
            let catalog = try JSON.decode([EmulatorProduct].self, added.body)
            #expect(catalog.first { $0.productId == "coins100" }?.price == 1_090)
            #expect(catalog.last?.productId == "gems10")
            #expect(catalog.last?.localizedDescription == "A handful of gems")
            let bought = try await client.execute(
                uri: "/emulator/v1/devices/sk-gems/purchases", method: .post,
                body: JSON.body(PurchaseRequest(productId: "gems10")))
            #expect(bought.status == .ok)

            let refused = try await client.execute(
                uri: "/emulator/v1/products", method: .put,
                body: JSON.body([
                    EmulatorProduct(productId: "ok", type: .consumable, price: 10),
                    EmulatorProduct(productId: "", type: .consumable, price: 10),
                ]))
            #expect(refused.status == .badRequest)
            #expect(fixture.emulator.catalog.product("ok") == nil)

            for level in [0, -1, 1_001, Int.max] {
                let badLevel = try await client.execute(
                    uri: "/emulator/v1/products", method: .put,
                    body: JSON.body([
                        EmulatorProduct(
                            productId: "vip.level", type: .autoRenewable, price: 990,
                            subscriptionGroupIdentifier: "20000009", subscriptionGroupLevel: level)
                    ]))
                #expect(badLevel.status == .badRequest)
                #expect(String(buffer: badLevel.body).contains("subscriptionGroupLevel must be 1 to 1000"))
            }
            let pastInt = try await client.execute(
                uri: "/emulator/v1/products", method: .put,
                body: ByteBuffer(
                    string:
                        #"[{"productId":"vip.level","type":"Auto-Renewable Subscription","price":990,"currency":"USD","#
                        + #""subscriptionGroupLevel":1466833547823913631744}]"#))
            #expect(pastInt.status == .badRequest)
            #expect(String(buffer: pastInt.body).contains("malformed_body"))
            #expect(fixture.emulator.catalog.product("vip.level") == nil)
        }
    }
}

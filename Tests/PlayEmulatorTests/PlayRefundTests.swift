import Foundation
import PlayEmulator
import PlayModel
import Testing

@Suite struct PlayRefundTests {
    static let voidedPath = "/androidpublisher/v3/applications/com.example.game/purchases/voidedpurchases"

    static func refundPath(_ orderId: String, revoke: Bool? = nil) -> String {
        "/androidpublisher/v3/applications/com.example.game/orders/\(orderId):refund"
            + (revoke.map { "?revoke=\($0)" } ?? "")
    }

    /// `orders.refund?revoke=true` cancels the purchase and lists it as voided by the
    /// developer; a second refund and an unknown order are Google's errors.
    @Test func aRevokingRefundCancelsAndVoids() async throws {
        try await PlayFixture().live { play in
            let (_, bought) = try await play.call(
                .post, "/emulator/v1/play/devices/r-1/purchases", json: PlayDevicePurchaseRequest(productId: "coins100")
            )
            let token = try #require(bought["purchaseToken"] as? String)
            let orderId = try #require(bought["orderId"] as? String)
            let access = try await play.accessToken()
            let (refunded, body) = try await play.call(.post, Self.refundPath(orderId, revoke: true), bearer: access)
            #expect(refunded == .noContent, "\(body)")
            let (_, read) = try await play.call(.get, PlayClient.tokenPath(token), bearer: access)
            #expect(read["purchaseState"] as? Int == 1)
            #expect(read["refundableQuantity"] as? Int == 0)

            let (listed, list) = try await play.call(.get, Self.voidedPath, bearer: access)
            #expect(listed == .ok, "\(list)")
            let voided = try #require(list["voidedPurchases"] as? [[String: Any]])
            #expect(voided.count == 1)
            let first = try #require(voided.first)
            #expect(first["kind"] as? String == "androidpublisher#voidedPurchase")
            #expect(first["purchaseToken"] as? String == token)
            #expect(first["orderId"] as? String == orderId)
            #expect(first["voidedSource"] as? Int == 1)
            #expect(first["voidedReason"] as? Int == 0)
            #expect(first["voidedQuantity"] == nil)
            #expect(first["purchaseTimeMillis"] as? String == read["purchaseTimeMillis"] as? String)
            let voidedAt = try #require((first["voidedTimeMillis"] as? String).flatMap { Int64($0) })
            #expect(abs(Double(voidedAt) / 1000 - Date().timeIntervalSince1970) < 60)
            #expect(list["tokenPagination"] == nil)

            let (twice, error) = try await play.call(.post, Self.refundPath(orderId, revoke: true), bearer: access)
            #expect(twice == .badRequest)
            #expect(reason(error) == "invalidPurchaseState")
            let (unknown, missing) = try await play.call(
                .post, Self.refundPath("GPA.0000-0000-0000-00000"), bearer: access)
            #expect(unknown == .notFound)
            #expect(reason(missing) == "notFound")
            let (anonymous, _) = try await play.call(.post, Self.refundPath(orderId))
            #expect(anonymous == .unauthorized)
        }
    }

    /// Without `revoke` the user keeps the item (still owned, still purchased) and nothing is
    /// left to refund.
    @Test func aRefundWithoutRevokeKeepsTheItem() async throws {
        try await PlayFixture().live { play in
            let device = "/emulator/v1/play/devices/r-2/purchases"
            let (_, bought) = try await play.call(
                .post, device, json: PlayDevicePurchaseRequest(productId: "levelpack1"))
            let token = try #require(bought["purchaseToken"] as? String)
            let orderId = try #require(bought["orderId"] as? String)
            let access = try await play.accessToken()
            let (refunded, _) = try await play.call(.post, Self.refundPath(orderId, revoke: false), bearer: access)
            #expect(refunded == .noContent)
            let (_, read) = try await play.call(
                .get, PlayClient.tokenPath(token, product: "levelpack1"), bearer: access)
            #expect(read["purchaseState"] as? Int == 0)
            #expect(read["refundableQuantity"] as? Int == 0)
            let (owned, _) = try await play.call(
                .post, device, json: PlayDevicePurchaseRequest(productId: "levelpack1"))
            #expect(owned == .conflict)
            let (bad, error) = try await play.call(
                .post, Self.refundPath(orderId) + "?revoke=maybe", bearer: access)
            #expect(bad == .badRequest)
            #expect(reason(error) == "invalid")
        }
    }

    /// A device-side partial refund is listed only with includeQuantityBasedPartialRefund,
    /// with its `voidedQuantity`; refunding the rest voids the whole purchase.
    @Test func quantityBasedPartialRefunds() async throws {
        try await PlayFixture().live { play in
            let device = "/emulator/v1/play/devices/r-3/purchases"
            let (_, bought) = try await play.call(
                .post, device, json: PlayDevicePurchaseRequest(productId: "coins100", quantity: 5))
            let token = try #require(bought["purchaseToken"] as? String)
            let (partial, after) = try await play.call(
                .post, "\(device)/\(token):refund", json: PlayDeviceRefundRequest(quantity: 2, reason: "chargeback"))
            #expect(partial == .ok, "\(after)")
            let access = try await play.accessToken()
            let (_, read) = try await play.call(.get, PlayClient.tokenPath(token), bearer: access)
            #expect(read["purchaseState"] as? Int == 0)
            #expect(read["refundableQuantity"] as? Int == 3)

            let (_, plain) = try await play.call(.get, Self.voidedPath, bearer: access)
            #expect((plain["voidedPurchases"] as? [Any])?.isEmpty == true)
            let (_, withPartial) = try await play.call(
                .get, Self.voidedPath + "?includeQuantityBasedPartialRefund=true", bearer: access)
            let records = try #require(withPartial["voidedPurchases"] as? [[String: Any]])
            #expect(records.count == 1)
            #expect(records.first?["voidedQuantity"] as? Int == 2)
            #expect(records.first?["voidedReason"] as? Int == 7)
            #expect(records.first?["voidedSource"] as? Int == 0)

            let (tooMany, error) = try await play.call(
                .post, "\(device)/\(token):refund", json: PlayDeviceRefundRequest(quantity: 4))
            #expect(tooMany == .badRequest)
            #expect(error["error"] as? String == "invalid_request")
            let (badReason, _) = try await play.call(
                .post, "\(device)/\(token):refund", json: PlayDeviceRefundRequest(reason: "boredom"))
            #expect(badReason == .badRequest)

            let (rest, _) = try await play.call(.post, "\(device)/\(token):refund")
            #expect(rest == .ok)
            let (_, final) = try await play.call(.get, PlayClient.tokenPath(token), bearer: access)
            #expect(final["purchaseState"] as? Int == 1)
            #expect(final["refundableQuantity"] as? Int == 0)
            let (_, full) = try await play.call(.get, Self.voidedPath, bearer: access)
            let fullRecords = try #require(full["voidedPurchases"] as? [[String: Any]])
            #expect(fullRecords.count == 1)
            #expect(fullRecords.first?["voidedQuantity"] == nil)
            #expect(fullRecords.first?["voidedReason"] as? Int == 1)
        }
    }

    /// maxResults pages the list; each page's nextPageToken brings the next, the last has none.
    @Test func voidedPurchasesArePaged() async throws {
        try await PlayFixture().live { play in
            let access = try await play.accessToken()
            var orders: [String] = []
            for index in 0..<5 {
                let (_, bought) = try await play.call(
                    .post, "/emulator/v1/play/devices/page-\(index)/purchases",
                    json: PlayDevicePurchaseRequest(productId: "coins100"))
                let orderId = try #require(bought["orderId"] as? String)
                orders.append(orderId)
                let (refunded, _) = try await play.call(.post, Self.refundPath(orderId, revoke: true), bearer: access)
                #expect(refunded == .noContent)
            }
            var seen: [String] = []
            var path = Self.voidedPath + "?maxResults=2&type=1"
            var pages = 0
            while true {
                let (status, page) = try await play.call(.get, path, bearer: access)
                #expect(status == .ok, "\(page)")
                pages += 1
                let records = try #require(page["voidedPurchases"] as? [[String: Any]])
                #expect(records.count <= 2)
                seen += records.compactMap { $0["orderId"] as? String }
                guard let next = (page["tokenPagination"] as? [String: Any])?["nextPageToken"] as? String else { break }
                path = Self.voidedPath + "?maxResults=2&token=\(next)"
                if pages > 5 { break }
            }
            #expect(pages == 3)
            #expect(seen == orders)

            for query in [
                "type=2", "maxResults=0", "token=garbage", "startTime=abc", "startTime=9999999999999&endTime=1",
            ] {
                let (status, error) = try await play.call(.get, Self.voidedPath + "?" + query, bearer: access)
                #expect(status == .badRequest, "\(query)")
                #expect(reason(error) == "invalid", "\(query)")
            }
            let (other, _) = try await play.call(
                .get, "/androidpublisher/v3/applications/com.other/purchases/voidedpurchases", bearer: access)
            #expect(other == .notFound)
        }
    }
}

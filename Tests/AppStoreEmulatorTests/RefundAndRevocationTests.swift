import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Full, partial and repeated refunds and Family Sharing revocation through the control
/// API, as the signed transaction, refund history and the notifications show them.
struct RefundAndRevocationTests {
    /// What the control API answers a refund or revocation with.
    private struct Answer: Decodable, Equatable {
        var refundState: String
        var revocationType: RevocationType?
        var revocationPercentage: Int?
    }

    @Test func partialRefundsAddUpToAFullOneAndAReversalClearsThem() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        let id = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "coins500")).transactionId)
        let verifier = JWSVerifier(roots: emulator.trustRoots)

        try await fixture.live { baseURL, client in
            let api = fixture.serverAPI(baseURL)
            func refund(_ body: String?) async throws -> TestResponse {
                try await client.execute(
                    uri: "/emulator/v1/transactions/\(id)/refund", method: .post,
                    body: body.map { ByteBuffer(string: $0) })
            }
            func signed() async throws -> JWSTransactionDecodedPayload {
                try await verifier.verifyTransaction(try await api.getTransactionInfo(transactionId: id))
            }
            func refundHistory() async throws -> [JWSTransactionDecodedPayload] {
                var refunded: [JWSTransactionDecodedPayload] = []
                for jws in try await api.getRefundHistory(transactionId: id, revision: nil).signedTransactions ?? [] {
                    refunded.append(try await verifier.verifyTransaction(jws))
                }
                return refunded
            }

            let first = try await refund(#"{"percentage": 30000}"#)
            #expect(first.status == .ok)
            #expect(
                try JSON.decode(Answer.self, first.body)
                    == Answer(refundState: "refunded", revocationType: .refundProrated, revocationPercentage: 30_000))
            let partial = try await signed()
            #expect(partial.revocationType == .refundProrated)
            #expect(partial.revocationPercentage == 30_000)
            #expect(partial.revocationReason == .refundedForOtherReason)
            #expect(partial.revocationDate != nil)
            #expect(partial.revokedShare == 30_000)
            let history = try await refundHistory()
            #expect(history.map(\.transactionId) == [id], "refund history lists a partial refund")
            #expect(history.first?.revocationPercentage == 30_000)

            let second = try await refund(#"{"percentage": 20000, "revocationReason": 1}"#)
            #expect(
                try JSON.decode(Answer.self, second.body)
                    == Answer(refundState: "refunded", revocationType: .refundProrated, revocationPercentage: 50_000),
                "refunds add up")
            #expect(try await signed().revocationReason == .refundedDueToIssue)

            let tooMuch = try await refund(#"{"percentage": 50001}"#)
            #expect(tooMuch.status == .conflict)
            #expect(try JSON.object(tooMuch.body)["error"] as? String == "refund_exceeds_purchase")

            let rest = try await refund(nil)
            #expect(
                try JSON.decode(Answer.self, rest.body)
                    == Answer(refundState: "refunded", revocationType: .refundFull, revocationPercentage: 100_000),
                "no percentage refunds what is left")
            let full = try await signed()
            #expect(full.revocationType == .refundFull && full.revocationPercentage == 100_000)
            let again = try await refund(#"{"percentage": 1}"#)
            #expect(again.status == .conflict)
            #expect(try JSON.object(again.body)["error"] as? String == "already_refunded")

            let reversed = try await client.execute(
                uri: "/emulator/v1/transactions/\(id)/reverse-refund", method: .post)
            #expect(try JSON.decode(Answer.self, reversed.body) == Answer(refundState: "reversed"))
            let valid = try await signed()
            #expect(valid.revocationType == nil && valid.revocationPercentage == nil)
            #expect(valid.revocationDate == nil && valid.revocationReason == nil)
            #expect(try await refundHistory().isEmpty)
        }

        let notifications = await emulator.notifications()
        #expect(notifications.map(\.notificationType) == [.oneTimeCharge, .refund, .refund, .refund, .refundReversed])
        var shares: [Int?] = []
        var types: [RevocationType?] = []
        for notification in notifications.dropFirst() {
            let transaction = try #require(
                try await verifier.verifyNotification(notification.signedPayload).transaction)
            shares.append(transaction.revocationPercentage)
            types.append(transaction.revocationType)
        }
        #expect(shares == [30_000, 50_000, 100_000, nil], "each REFUND signs the share refunded so far")
        #expect(types == [.refundProrated, .refundProrated, .refundFull, nil])
    }

    @Test func aFullRefundSignsRefundFullAndItsWholeShare() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let id = try #require(
            try await fixture.emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "levelpack1"))
                .transactionId)
        let refunded = try await fixture.emulator.refund(transactionId: id, reason: .refundedDueToIssue)
        #expect(refunded.revocationType == .refundFull && refunded.revocationPercentage == 100_000)
        let notification = try #require(await fixture.emulator.notifications().last)
        let transaction = try #require(
            try await JWSVerifier(roots: fixture.emulator.trustRoots).verifyNotification(notification.signedPayload)
                .transaction)
        #expect(notification.notificationType == .refund)
        #expect(transaction.revocationType == .refundFull)
        #expect(transaction.revocationPercentage == 100_000)
        #expect(transaction.revocationReason == .refundedDueToIssue)
        #expect(transaction.revocationDate != nil)
    }

    @Test func refundBodiesOutsideTheRulesChangeNothing() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let id = try #require(
            try await fixture.emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "coins100")).transactionId)
        try await fixture.live { _, client in
            let cases: [(String, HTTPResponse.Status, String)] = [
                (#"{"percentage": 0}"#, .badRequest, "invalid_percentage"),
                (#"{"percentage": -5}"#, .badRequest, "invalid_percentage"),
                (#"{"percentage": 100001}"#, .badRequest, "invalid_percentage"),
                (#"{"percentage": 2.5}"#, .badRequest, "malformed_body"),
                (#"{"percentage": "all"}"#, .badRequest, "malformed_body"),
                (#"{"revocationReason": 7}"#, .badRequest, "invalid_revocation_reason"),
                ("{oops", .badRequest, "malformed_body"),
            ]
            for (body, status, code) in cases {
                let response = try await client.execute(
                    uri: "/emulator/v1/transactions/\(id)/refund", method: .post, body: ByteBuffer(string: body))
                #expect(response.status == status, "\(body)")
                #expect(try JSON.object(response.body)["error"] as? String == code, "\(body)")
            }
        }
        #expect(await fixture.emulator.ledger().first?.refundState == EmulatedTransaction.RefundState.none)
        #expect(await fixture.emulator.notifications().map(\.notificationType) == [.oneTimeCharge])
    }

    @Test func familyRevokeSendsRevokeAndIsNotARefund() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        let pack = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "levelpack1")).transactionId)
        let vip = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly")).transactionId)
        let coins = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "coins100")).transactionId)
        let verifier = JWSVerifier(roots: emulator.trustRoots)

        try await fixture.live { baseURL, client in
            func post(_ id: String, _ action: String) async throws -> TestResponse {
                try await client.execute(uri: "/emulator/v1/transactions/\(id)/\(action)", method: .post)
            }
            for id in [pack, vip] {
                let revoked = try await post(id, "family-revoke")
                #expect(revoked.status == .ok)
                #expect(
                    try JSON.decode(Answer.self, revoked.body)
                        == Answer(refundState: "revoked", revocationType: .familyRevoke))
            }
            let conflicts: [(String, String, String)] = [
                (pack, "family-revoke", "already_revoked"),
                (pack, "refund", "already_revoked"),
                (pack, "decline-refund", "already_revoked"),
                (pack, "reverse-refund", "not_refunded"),
                (coins, "family-revoke", "not_family_shareable"),
            ]
            for (id, action, code) in conflicts {
                let response = try await post(id, action)
                #expect(response.status == .conflict, "\(action)")
                #expect(try JSON.object(response.body)["error"] as? String == code, "\(action)")
            }
            let api = fixture.serverAPI(baseURL)
            let info = try await verifier.verifyTransaction(try await api.getTransactionInfo(transactionId: pack))
            #expect(info.revocationType == .familyRevoke)
            #expect(info.revocationPercentage == nil, "Apple gives a percentage for refunds only")
            #expect(info.revocationReason == .refundedForOtherReason)
            #expect(info.revocationDate != nil)
            #expect(info.revokedShare == Milliunits.whole)
        }
        #expect(try await emulator.unfinishedTransactions(deviceId: "ann").map(\.transactionId) == [coins])

        let notifications = await emulator.notifications()
        #expect(
            notifications.map(\.notificationType) == [.oneTimeCharge, .subscribed, .oneTimeCharge, .revoke, .revoke])
        let revokedPack = try await verifier.verifyNotification(notifications[3].signedPayload)
        #expect(revokedPack.transaction?.transactionId == pack)
        #expect(revokedPack.transaction?.revocationType == .familyRevoke)
        let revokedVip = try await verifier.verifyNotification(notifications[4].signedPayload)
        #expect(revokedVip.transaction?.transactionId == vip)
        #expect(revokedVip.notification.data?.status == .revoked)
        #expect(revokedVip.renewalInfo?.autoRenewStatus == .off)
    }
}

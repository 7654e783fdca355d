import AppStoreModel
import AppStoreVerification
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AppStoreEmulator

/// Set App Account Token over HTTP: the token reaches what is signed from then on; Apple's
/// codes for what it refuses.
struct AppAccountTokenTests {
    @Test func theTokenIsSetOnThePurchaseAndSignedFromThenOn() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let levelpack = try await fixture.buy("levelpack1", token: "0B1E28BA-2FA1-11D2-883F-0016D3CCA427")
        let verifier = JWSVerifier(roots: fixture.emulator.trustRoots)
        let token = UUID().uuidString
        try await fixture.live { baseURL, client in
            let api = fixture.serverAPI(baseURL)
            func signedToken() async throws -> String? {
                try await verifier.verifyTransaction(try await api.getTransactionInfo(transactionId: levelpack))
                    .appAccountToken
            }
            let set = try await fixture.call(
                client, .put, "v1/transactions/\(levelpack)/appAccountToken",
                body: JSON.body(UpdateAppAccountTokenRequest(appAccountToken: token)))
            #expect(set.status == .ok)
            #expect(set.body.readableBytes == 0)
            #expect(try await signedToken() == token.lowercased())
            let history = try await api.getTransactionHistory(transactionId: levelpack)
            #expect(
                try await verifier.verifyTransaction(try #require(history.signedTransactions?.first)).appAccountToken
                    == token.lowercased())

            // A notification about the purchase carries it too.
            try await fixture.emulator.refund(transactionId: levelpack)
            let refund = try #require(await fixture.emulator.notifications().last)
            let payload = try await verifier.verifyNotification(refund.signedPayload)
            let signed = try #require(payload.notification.data?.signedTransactionInfo)
            #expect(try await verifier.verifyTransaction(signed).appAccountToken == token.lowercased())

            // An empty string removes it.
            let cleared = try await fixture.call(
                client, .put, "v1/transactions/\(levelpack)/appAccountToken",
                body: JSON.body(UpdateAppAccountTokenRequest(appAccountToken: "")))
            #expect(cleared.status == .ok)
            #expect(try await signedToken() == nil)
        }
    }

    @Test func aSubscriptionsCurrentTransactionTakesItItsPastOnesKeepTheirs() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let original = try await fixture.buy("vip.monthly", token: "11111111-1111-1111-1111-111111111111")
        // A renewal: the same purchase's next transaction.
        let renewalId = try await fixture.emulator.renewSubscription(originalTransactionId: original).transactionId
        let token = "22222222-2222-2222-2222-222222222222"
        try await fixture.live { _, client in
            let set = try await fixture.call(
                client, .put, "v1/transactions/\(original)/appAccountToken",
                body: JSON.body(UpdateAppAccountTokenRequest(appAccountToken: token)))
            #expect(set.status == .ok)
            #expect(try await fixture.emulator.transaction(renewalId).appAccountToken == token)
            #expect(
                try await fixture.emulator.transaction(original).appAccountToken
                    == "11111111-1111-1111-1111-111111111111")

            try expectAPIError(
                try await fixture.call(
                    client, .put, "v1/transactions/\(renewalId)/appAccountToken",
                    body: JSON.body(UpdateAppAccountTokenRequest(appAccountToken: token))),
                .badRequest, .transactionIdIsNotOriginalTransactionId)
        }
    }

    @Test func refusedRequestsGetApplesCodes() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let coins = try await fixture.buy("coins100")
        let appTransactionId = try #require(await fixture.emulator.ledger().first?.appTransactionId)
        let token = JSON.body(UpdateAppAccountTokenRequest(appAccountToken: UUID().uuidString))
        try await fixture.live { _, client in
            try expectAPIError(
                try await fixture.call(
                    client, .put, "v1/transactions/\(coins)/appAccountToken",
                    body: JSON.body(UpdateAppAccountTokenRequest(appAccountToken: "player-42"))),
                .badRequest, .invalidAppAccountTokenUUID)
            try expectAPIError(
                try await fixture.call(
                    client, .put, "v1/transactions/\(coins)/appAccountToken", body: ByteBuffer(string: "{}")),
                .badRequest, .generalBadRequest)
            try expectAPIError(
                try await fixture.call(client, .put, "v1/transactions/2999999999999999/appAccountToken", body: token),
                .notFound, .originalTransactionIdNotFound)
            try expectAPIError(
                try await fixture.call(
                    client, .put, "v1/transactions/\(coins)/appAccountToken", environment: "production", body: token),
                .notFound, .originalTransactionIdNotFound)
            try expectAPIError(
                try await fixture.call(
                    client, .put, "v1/transactions/\(appTransactionId)/appAccountToken", body: token),
                .badRequest, .appTransactionIdNotSupported)
            try expectAPIError(
                try await fixture.call(client, .put, "v1/transactions/1e5/appAccountToken", body: token),
                .badRequest, .invalidTransactionId)
            #expect(try await fixture.emulator.transaction(coins).appAccountToken == nil, "nothing refused is set")
        }
    }
}

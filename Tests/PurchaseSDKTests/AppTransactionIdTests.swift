import AppStoreEmulator
import Foundation
import PurchaseSDK
import PurchaseSDKEmulator
import Testing

/// The SDK's transactions carry the customer's `appTransactionId`: from the store, or read
/// from the signed transaction.
@Suite(.timeLimit(.minutes(3))) struct AppTransactionIdTests {
    @Test func theEmulatedPhoneHandsOverItsAppTransactionId() async throws {
        try await withFixture { fixture in
            let (_, store) = await fixture.pipeline(player: nil, device: "jo-phone")
            guard
                case .purchased(let bought) = try await store.purchase(
                    productId: "coins100", appAccountToken: UUID().uuidString.lowercased(), quantity: 1)
            else {
                Issue.record("the emulator did not charge")
                return
            }
            let appTransactionId = try #require(bought.appTransactionId)
            #expect(!appTransactionId.isEmpty)
            let listed = try await store.unfinishedTransactions()
            #expect(listed.map(\.appTransactionId) == [appTransactionId])
            // The same account's next purchase carries the same one.
            guard
                case .purchased(let again) = try await store.purchase(
                    productId: "potion", appAccountToken: UUID().uuidString.lowercased(), quantity: 1)
            else {
                Issue.record("the emulator did not charge")
                return
            }
            #expect(again.appTransactionId == appTransactionId)
            // What the phone says is what Apple signed.
            let fromSignature = StoreTransaction(
                transactionId: bought.transactionId, productId: bought.productId, appAccountToken: nil,
                signedTransaction: bought.signedTransaction)
            #expect(fromSignature.appTransactionId == appTransactionId)
        }
    }

    @Test func aStoreKit1PhoneShowsNone() async throws {
        try await withFixture { fixture in
            let (_, store) = await fixture.pipeline(player: nil, device: "sk1-phone", behaviour: .storeKit1)
            guard
                case .purchased(let bought) = try await store.purchase(
                    productId: "coins100", appAccountToken: UUID().uuidString.lowercased(), quantity: 1)
            else {
                Issue.record("the emulator did not charge")
                return
            }
            #expect(bought.appTransactionId == nil && bought.signedTransaction == nil)
        }
    }

    @Test func theSignedTransactionsPayloadIsReadWhenTheStoreGivesNone() throws {
        let jws =
            "eyJhbGciOiJFUzI1NiJ9." + base64URL(#"{"transactionId":"1","appTransactionId":"704289572"}"#) + ".c2ln"
        #expect(signed(jws).appTransactionId == "704289572")
        #expect(
            StoreTransaction(
                transactionId: "1", productId: "p", appAccountToken: nil, signedTransaction: jws,
                appTransactionId: "given"
            ).appTransactionId == "given")
        for unreadable in [
            "", "a.b", "a.!!!.c", "a." + base64URL("[1]") + ".c", "a." + base64URL(#"{"appTransactionId":7}"#) + ".c",
        ] {
            #expect(signed(unreadable).appTransactionId == nil, "\(unreadable)")
        }
        #expect(signed("a." + base64URL(#"{"transactionId":"1"}"#) + ".c").appTransactionId == nil)
    }

    private func signed(_ jws: String) -> StoreTransaction {
        StoreTransaction(transactionId: "1", productId: "p", appAccountToken: nil, signedTransaction: jws)
    }

    private func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

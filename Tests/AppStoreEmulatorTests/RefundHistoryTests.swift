import AppStoreAPI
import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import Foundation
import HummingbirdTesting
import Testing

/// Get Refund History (v2) over HTTP: refunds by `revocationDate`, 20 a page, and a kept
/// revision that later gives only the refunds made since.
struct RefundHistoryTests {
    @Test func refundsComeInRevocationOrderInPagesAndAKeptRevisionGivesWhatCameSince() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        var purchases: [String] = []
        for _ in 0..<23 { purchases.append(try await fixture.buy("coins100")) }
        let bought = purchases
        let kept = try await fixture.buy("levelpack1")
        let refundOrder = Array(bought.reversed())
        for id in refundOrder { try await fixture.emulator.refund(transactionId: id) }
        let verifier = JWSVerifier(roots: fixture.emulator.trustRoots)

        try await fixture.live { baseURL, client in
            let api = fixture.serverAPI(baseURL)
            var seen: [JWSTransactionDecodedPayload] = []
            var revision: String?
            var pages = 0
            repeat {
                let page = try await api.getRefundHistory(transactionId: kept, revision: revision)
                let refunds = try await (page.signedTransactions ?? []).asyncMap {
                    try await verifier.verifyTransaction($0)
                }
                #expect(refunds.allSatisfy { $0.revocationDate != nil })
                seen += refunds
                let next: String = try #require(page.revision)
                revision = next
                pages += 1
                if page.hasMore != true { break }
            } while pages < 5
            #expect(pages == 2)
            #expect(Set(seen.compactMap(\.transactionId)) == Set(refundOrder))
            #expect(seen.count == refundOrder.count)
            // Ascending revocationDate; refunds of one millisecond by transaction id.
            let keys = seen.map { ($0.revocationDate ?? 0, $0.transactionId ?? "") }
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })

            // Nothing new: an empty page, the same revision, and no more.
            let unchanged = try await api.getRefundHistory(transactionId: kept, revision: revision)
            #expect(unchanged.signedTransactions == [])
            #expect(unchanged.revision == revision)
            #expect(unchanged.hasMore == false)

            // A reversed refund leaves the list; refunded again, it comes after the kept revision.
            try await fixture.emulator.reverseRefund(transactionId: bought[5])
            try await fixture.emulator.refund(transactionId: kept)
            try await fixture.emulator.refund(transactionId: bought[5])
            let since = try await api.getRefundHistory(transactionId: bought[0], revision: revision)
            let ids = try await (since.signedTransactions ?? []).asyncMap { try await verifier.verifyTransaction($0) }
                .compactMap(\.transactionId)
            #expect(Set(ids) == [kept, bought[5]])
            #expect(ids.count == 2)
        }
    }

    @Test func aCustomerWithoutRefundsGetsAnEmptyListAndBadInputsApplesCodes() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let id = try await fixture.buy("coins100")
        let other = try await fixture.buy("coins100", on: "other")
        try await fixture.emulator.refund(transactionId: other)
        try await fixture.live { _, client in
            let response = try await fixture.call(client, .get, "v2/refund/lookup/\(id)")
            #expect(response.status == .ok)
            let page = try JSON.decode(RefundHistoryResponse.self, response.body)
            #expect(page.signedTransactions == [], "another customer's refund is not this one's")
            #expect(page.hasMore == false)
            let revision = try #require(page.revision)

            try expectAPIError(
                try await fixture.call(client, .get, "v2/refund/lookup/\(other)?revision=\(revision)"),
                .badRequest, .invalidRequestRevision)
            try expectAPIError(
                try await fixture.call(client, .get, "v2/refund/lookup/\(id)?revision=12"), .badRequest,
                .invalidRequestRevision)
            try expectAPIError(
                try await fixture.call(client, .get, "v2/refund/lookup/2999999999999999"), .notFound,
                .transactionIdNotFound)
            try expectAPIError(
                try await fixture.call(client, .get, "v2/refund/lookup/x1"), .badRequest, .invalidTransactionId)
        }
    }
}

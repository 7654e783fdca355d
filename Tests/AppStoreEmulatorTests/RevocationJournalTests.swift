import AppStoreModel
import AppStoreVerification
import Foundation
import Testing

@testable import AppStoreEmulator

/// The journal keeps refund shares, revocation types and app transaction ids across a
/// restart, and a journal written before the emulator kept them loads with them filled in.
struct RevocationJournalTests {
    @Test func aRestartKeepsSharesRevocationsAndAppTransactionIds() async throws {
        let first = try await EmulatorFixture()
        defer { first.remove() }
        let coins = try await first.emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "coins500"))
        let pack = try await first.emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "levelpack1"))
        let bob = try await first.emulator.purchase(deviceId: "bob", PurchaseRequest(productId: "coins100"))
        try await first.emulator.refund(transactionId: try #require(coins.transactionId), percentage: 25_000)
        try await first.emulator.familyRevoke(transactionId: try #require(pack.transactionId))
        let ledger = await first.emulator.ledger()
        await first.emulator.shutdown()

        let second = try await EmulatorFixture(directory: first.directory)
        #expect(await second.emulator.ledger() == ledger)
        let refunded = try #require(await second.emulator.ledger().first)
        #expect(refunded.revocationType == .refundProrated && refunded.revocationPercentage == 25_000)
        #expect(await second.emulator.ledger()[1].revocationType == .familyRevoke)
        let info = try await second.emulator.transactionInfo(try #require(coins.transactionId), environment: .sandbox)
        let signed = try await JWSVerifier(roots: second.emulator.trustRoots).verifyTransaction(
            try #require(info.signedTransactionInfo))
        #expect(signed.revocationType == .refundProrated && signed.revocationPercentage == 25_000)

        let again = try await second.emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "potion"))
        #expect(again.appTransactionId == coins.appTransactionId, "the account keeps its app transaction")
        let carol = try await second.emulator.purchase(deviceId: "carol", PurchaseRequest(productId: "potion"))
        #expect(
            !Set([coins.appTransactionId, bob.appTransactionId]).contains(carol.appTransactionId),
            "a new account gets an id no other has")
        await second.emulator.shutdown()
    }

    @Test func aJournalFromBeforeAppTransactionsAndPartialRefundsLoadsWithThem() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let day: Int64 = 86_400_000
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let refunded = EmulatedTransaction(
            transactionId: "2000000000000001", originalTransactionId: "2000000000000001", deviceId: "old",
            productId: "coins100", type: .consumable, quantity: 1, environment: .sandbox,
            purchaseDate: now - 40 * day, orderId: "MK00000001", price: 990, currency: "USD", finished: true,
            refundState: .refunded, revocationDate: now - 39 * day, revocationReason: .refundedDueToIssue)
        let expired = EmulatedTransaction(
            transactionId: "2000000000000002", originalTransactionId: "2000000000000002", deviceId: "old",
            productId: "vip.monthly", type: .autoRenewable, quantity: 1, environment: .sandbox,
            purchaseDate: now - 35 * day, expiresDate: now - 5 * day, webOrderLineItemId: "3000000000000002",
            orderId: "MK00000002", price: 4_990, currency: "USD", finished: true, refundState: .none)
        try Self.writeOldJournal([refunded, expired], to: directory)

        let fixture = try await EmulatorFixture(directory: directory)
        defer { fixture.remove() }
        let ledger = await fixture.emulator.ledger()
        let appTransactionId = try #require(ledger.first?.appTransactionId)
        #expect(ledger.map(\.appTransactionId) == [appTransactionId, appTransactionId])
        #expect(ledger[0].revocationType == .refundFull && ledger[0].revocationPercentage == 100_000)
        #expect(ledger[1].revocationType == nil)

        let statuses = try await fixture.emulator.subscriptionStatuses(appTransactionId, environment: .sandbox)
        let item = try #require(statuses.data?.first?.lastTransactions?.first)
        #expect(item.originalTransactionId == expired.transactionId)
        #expect(item.status == .expired)
        let renewal = try await JWSVerifier(roots: fixture.emulator.trustRoots).verifyRenewalInfo(
            try #require(item.signedRenewalInfo))
        #expect(
            renewal.autoRenewStatus == .off,
            "an old journal's lapsed subscription expired: the emulator that wrote it never renewed")
        #expect(renewal.renewalDate == expired.expiresDate)
        #expect(
            try await fixture.emulator.subscriptionStatuses(
                appTransactionId, statuses: [.active], environment: .sandbox
            ).data == [])

        let app = try await fixture.emulator.appTransactionInfo(expired.transactionId, environment: .sandbox)
        let payload = try await JWSVerifier(roots: fixture.emulator.trustRoots).verifyAppTransaction(
            try #require(app.signedAppTransactionInfo))
        #expect(payload.appTransactionId == appTransactionId)
        #expect(payload.originalPurchaseDate == refunded.purchaseDate, "the account's first purchase")
        let next = try await fixture.emulator.purchase(deviceId: "old", PurchaseRequest(productId: "potion"))
        #expect(next.appTransactionId == appTransactionId)
        await fixture.emulator.shutdown()

        let restarted = try await EmulatorFixture(directory: directory)
        #expect(
            await restarted.emulator.ledger().map(\.appTransactionId) == Array(repeating: appTransactionId, count: 3))
        await restarted.emulator.shutdown()
    }

    /// Writes `transactions` as the journal of an emulator that knew neither app
    /// transactions nor refund shares: records without those keys.
    private static func writeOldJournal(_ transactions: [EmulatedTransaction], to directory: URL) throws {
        var lines = Data()
        for transaction in transactions {
            let line = try JSONEncoder().encode(EmulatorRecord.transaction(transaction))
            let text = String(decoding: line, as: UTF8.self)
            for key in ["appTransactionId", "revocationType", "revocationPercentage"] {
                #expect(!text.contains(key), "an old journal line has no \(key)")
            }
            lines.append(line)
            lines.append(0x0A)
        }
        try lines.write(to: directory.appendingPathComponent("state.jsonl"))
    }
}

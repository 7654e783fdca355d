import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import Foundation
import Testing

/// A restart on the same data directory keeps everything.
struct EmulatorPersistenceTests {
    @Test func restartKeepsStateRootsAndKey() async throws {
        // A receipt chain of its own: the emulator generates and writes it, the restart reads it.
        let first = try await EmulatorFixture(ownReceiptChain: true)
        defer { first.remove() }
        let bought = try await first.emulator.purchase(deviceId: "p", PurchaseRequest(productId: "levelpack1"))
        let coins = try await first.emulator.purchase(deviceId: "p", PurchaseRequest(productId: "coins100"))
        try await first.emulator.finishTransaction(deviceId: "p", transactionId: try #require(coins.transactionId))
        try await first.emulator.refund(transactionId: try #require(bought.transactionId))
        try await first.emulator.updateDevice("kid", settings: DeviceSettings(askToBuy: true))
        let pending = try await first.emulator.purchase(deviceId: "kid", PurchaseRequest(productId: "potion"))
        let ledger = await first.emulator.ledger()
        let notifications = await first.emulator.notifications()
        await first.emulator.shutdown()

        let second = try await EmulatorFixture(directory: first.directory)
        #expect(second.emulator.identity.jwsChain == first.emulator.identity.jwsChain)
        #expect(second.emulator.identity.receiptChain == first.emulator.identity.receiptChain)
        #expect(second.emulator.identity.apiKey.privateKeyPEM == first.emulator.identity.apiKey.privateKeyPEM)
        #expect(await second.emulator.ledger() == ledger)
        #expect(await second.emulator.notifications().map(\.notificationUUID) == notifications.map(\.notificationUUID))
        #expect(await second.emulator.device("kid").askToBuy)
        #expect(
            await second.emulator.pendingPurchases(deviceId: "kid").map(\.pendingId) == [
                try #require(pending.pendingId)
            ])

        // Signing goes on with the same roots, and ids do not repeat.
        let next = try await second.emulator.purchase(deviceId: "p", PurchaseRequest(productId: "coins500"))
        #expect(!ledger.map(\.transactionId).contains(try #require(next.transactionId)))
        _ = try await JWSVerifier(roots: first.emulator.trustRoots).verifyTransaction(
            try #require(next.signedTransaction))
        await second.emulator.shutdown()
    }

    @Test func unfinishedTransactionsFollowFinishesRefundsAndReversalsAcrossARestart() async throws {
        let first = try await EmulatorFixture()
        defer { first.remove() }
        func buy(_ product: String, on device: String = "p") async throws -> String {
            try #require(
                try await first.emulator.purchase(deviceId: device, PurchaseRequest(productId: product)).transactionId)
        }
        let finished = try await buy("coins100")
        let refunded = try await buy("coins500")
        let waiting = try await buy("potion")
        let otherDevice = try await buy("coins100", on: "q")
        try await first.emulator.finishTransaction(deviceId: "p", transactionId: finished)
        try await first.emulator.refund(transactionId: refunded)
        #expect(try await first.emulator.unfinishedTransactions(deviceId: "p").map(\.transactionId) == [waiting])
        #expect(try await first.emulator.unfinishedTransactions(deviceId: "q").map(\.transactionId) == [otherDevice])

        try await first.emulator.reverseRefund(transactionId: refunded)
        #expect(
            Set(try await first.emulator.unfinishedTransactions(deviceId: "p").map(\.transactionId)) == [
                waiting, refunded,
            ])
        await first.emulator.shutdown()

        let second = try await EmulatorFixture(directory: first.directory)
        #expect(
            Set(try await second.emulator.unfinishedTransactions(deviceId: "p").map(\.transactionId)) == [
                waiting, refunded,
            ])
        await second.emulator.shutdown()
    }

    @Test func aTornLastJournalLineIsSkipped() async throws {
        let first = try await EmulatorFixture()
        defer { first.remove() }
        _ = try await first.emulator.purchase(deviceId: "p", PurchaseRequest(productId: "coins100"))
        await first.emulator.shutdown()
        let journal = first.directory.appendingPathComponent("state.jsonl")
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"transaction\":{\"transactionId\":\"trunc".utf8))
        try handle.close()

        let second = try await EmulatorFixture(directory: first.directory)
        #expect(await second.emulator.ledger().count == 1)
        await second.emulator.shutdown()
    }

    @Test("a line that does not decode before the last stops the load, and the journal is left as it was")
    func aCorruptJournalLineStopsTheLoad() async throws {
        let first = try await EmulatorFixture()
        defer { first.remove() }
        _ = try await first.emulator.purchase(deviceId: "p", PurchaseRequest(productId: "coins100"))
        _ = try await first.emulator.purchase(deviceId: "p", PurchaseRequest(productId: "potion"))
        await first.emulator.shutdown()
        let journal = first.directory.appendingPathComponent("state.jsonl")
        var lines = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(lines.count > 2)
        lines[1] = #"{"transaction":{"transactionId":"2000000000000001","quantity":"many"}}"#
        let corrupt = lines.joined(separator: "\n") + "\n"
        try corrupt.write(to: journal, atomically: true, encoding: .utf8)

        do {
            _ = try await EmulatorFixture(directory: first.directory)
            Issue.record("the emulator started on a corrupt journal")
        } catch let error as EmulatorError {
            #expect(error.code == "corrupt_journal")
            #expect(error.message.contains("line 2"))
        }
        #expect(try String(contentsOf: journal, encoding: .utf8) == corrupt)
    }
}

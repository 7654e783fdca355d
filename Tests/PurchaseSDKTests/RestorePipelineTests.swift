import Foundation
import Testing

@testable import PurchaseSDK

/// `restore()` against a scripted store and a canned server answer: what it reports, what
/// it finishes, and a kill between the server's answer and the finish.
@Suite struct RestorePipelineTests {
    private static let levelpack = transaction("1001", "levelpack1")
    private static let vip = transaction("1002", "vip.monthly")
    private static let rejected = transaction("1003", "seasonpass")
    private static let unsigned = StoreTransaction(
        transactionId: "1004", productId: "levelpack2", appAccountToken: nil, signedTransaction: nil)

    private static let answer = """
        {"results": [
           {"transactionId": "1001", "originalTransactionId": "1001", "productId": "levelpack1", "status": "restored"},
           {"transactionId": "1002", "originalTransactionId": "1000", "productId": "vip.monthly",
            "status": "already_owned"},
           {"transactionId": "1003", "originalTransactionId": "1003", "status": "rejected",
            "code": "environment_mismatch", "message": "not this environment"}],
         "entitlements": [
           {"entitlementId": "levelpack1", "productId": "levelpack1", "state": "active", "entitled": true,
            "since": 1700000000000, "until": null, "ownership": "PURCHASED", "transactionId": "1001",
            "originalTransactionId": "1001", "environment": "Sandbox"}]}
        """

    @Test func aRestoreReportsSignedTransactionsAndFinishesTheUnfinishedOnesTheServerHolds() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, transport) = (ScriptedStore(), CannedTransport())
        transport.answer(200, Self.answer)
        let pipeline = Self.pipeline(directory, store, transport)
        try await pipeline.start()
        store.set(current: [Self.levelpack, Self.vip, Self.rejected], unfinished: [Self.levelpack, Self.rejected])

        let outcome = try await pipeline.restore()
        let reported = try #require(transport.requests(to: "/v1/purchases/restore").first?.body)
        let body = try JSONDecoder().decode([String: [String]].self, from: reported)
        #expect(body == ["signedTransactions": ["jws-1001", "jws-1002", "jws-1003"]])
        #expect(outcome.results.map(\.status) == [.restored, .alreadyOwned, .rejected])
        #expect(outcome.results.map(\.productId) == ["levelpack1", "vip.monthly", "seasonpass"])
        #expect(outcome.results.map(\.finishedByRestore) == [true, false, false])
        #expect(outcome.results[2].code == "environment_mismatch")
        #expect(store.finished == ["1001"], "a rejected transaction is left to the purchase path")
        #expect(!outcome.entitlements.isCached && outcome.entitlements.entitledIds == ["levelpack1"])

        let records = await pipeline.allRecords()
        #expect(records.map(\.origin) == [.restore])
        #expect(records.first?.state == .finished && records.first?.transactionFinished == true)
        #expect(records.first?.delivery?.status == "restored")
        transport.goOffline()
        let offline = await pipeline.entitlements()
        #expect(offline.isCached && offline.entitlements == outcome.entitlements.entitlements)
        await pipeline.stop()
    }

    @Test func aKillBetweenTheServersAnswerAndTheFinishEndsFinishedAtTheNextStart() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, transport) = (ScriptedStore(), CannedTransport())
        transport.answer(200, Self.answer)
        let doomed = Self.pipeline(directory, store, transport, crashAt: .beforeFinish)
        try await doomed.start()
        store.set(current: [Self.levelpack, Self.vip, Self.rejected], unfinished: [Self.levelpack])
        await #expect(throws: SimulatedCrash(at: .beforeFinish)) { try await doomed.restore() }
        #expect(store.finished.isEmpty)
        let journaled = try await FilePurchaseJournal(url: directory.appendingPathComponent("journal")).load()
        #expect(journaled.records.map(\.state) == [.delivered])

        transport.goOffline()
        let revived = Self.pipeline(directory, store, transport)
        try await revived.start()
        await revived.waitUntilIdle()
        #expect(store.finished == ["1001"])
        let records = await revived.allRecords()
        #expect(records.map(\.state) == [.finished] && records.map(\.origin) == [.restore])
        await revived.stop()
    }

    private static let keptElsewhere = transaction("2001", "levelpack1")
    private static let refusedElsewhere = transaction("2002", "levelpack2")
    private static let transferred = transaction("2003", "vip.monthly")

    private static let othersAnswer = """
        {"results": [
           {"transactionId": "2001", "originalTransactionId": "2001", "productId": "levelpack1",
            "status": "kept_by_other_player"},
           {"transactionId": "2002", "originalTransactionId": "2002", "productId": "levelpack2", "status": "refused",
            "code": "restore_refused", "message": "another player holds it"},
           {"transactionId": "2003", "originalTransactionId": "2003", "productId": "vip.monthly",
            "status": "transferred"}],
         "entitlements": []}
        """

    /// A second game account restores transactions another player keeps: they are finished
    /// with the store, but never journaled or streamed as delivered to this player.
    @Test func aTransactionAnotherPlayerKeepsIsFinishedButNeverDeliveredToTheRestoringPlayer() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, transport) = (ScriptedStore(), CannedTransport())
        transport.answer(200, Self.othersAnswer)
        let pipeline = Self.pipeline(directory, store, transport)
        try await pipeline.start()
        let all = [Self.keptElsewhere, Self.refusedElsewhere, Self.transferred]
        store.set(current: all, unfinished: all)

        let outcome = try await pipeline.restore()
        #expect(outcome.results.map(\.status) == [.keptByOtherPlayer, .refused, .transferred])
        #expect(outcome.results.map(\.finishedByRestore) == [true, true, true])
        #expect(Set(store.finished) == ["2001", "2002", "2003"], "all end finished with the store")

        let records = Dictionary(uniqueKeysWithValues: await pipeline.allRecords().map { ($0.transactionId ?? "", $0) })
        #expect(records["2001"]?.state == .failed(reason: "kept_by_other_player"))
        #expect(records["2002"]?.state == .failed(reason: "refused"))
        #expect(records["2003"]?.state == .finished && records["2003"]?.delivery?.status == "transferred")
        for id in ["2001", "2002"] {
            #expect(records[id]?.origin == .restore && records[id]?.transactionFinished == true)
            #expect(records[id]?.delivery == nil, "no delivery to this player")
        }
        await pipeline.stop()

        var delivered: [String] = []
        var failed: [String] = []
        for await streamed in pipeline.outcomes {
            switch streamed {
            case .delivered(let record): delivered.append(record.transactionId ?? "")
            case .failed(let record): failed.append(record.transactionId ?? "")
            case .pending, .cancelled: Issue.record("unexpected \(streamed)")
            }
        }
        #expect(delivered == ["2003"], "only the transferred one was delivered to this player")
        #expect(failed.sorted() == ["2001", "2002"])
    }

    @Test func aKillBeforeFinishingATransactionAnotherPlayerKeepsNeverDeliversItAtTheNextStart() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, transport) = (ScriptedStore(), CannedTransport())
        transport.answer(200, Self.othersAnswer)
        let doomed = Self.pipeline(directory, store, transport, crashAt: .beforeFinish)
        try await doomed.start()
        store.set(
            current: [Self.keptElsewhere, Self.refusedElsewhere, Self.transferred], unfinished: [Self.keptElsewhere])
        await #expect(throws: SimulatedCrash(at: .beforeFinish)) { try await doomed.restore() }
        #expect(store.finished.isEmpty)
        let journaled = try await FilePurchaseJournal(url: directory.appendingPathComponent("journal")).load()
        #expect(journaled.records.map(\.state) == [.failed(reason: "kept_by_other_player")])

        transport.goOffline()
        let revived = Self.pipeline(directory, store, transport)
        try await revived.start()
        await revived.waitUntilIdle()
        #expect(store.finished == ["2001"])
        let records = await revived.allRecords()
        #expect(records.map(\.state) == [.failed(reason: "kept_by_other_player")])
        #expect(records.map(\.transactionFinished) == [true] && records.map(\.origin) == [.restore])
        await revived.stop()
        var streamed: [PurchaseOutcome] = []
        for await outcome in revived.outcomes { streamed.append(outcome) }
        #expect(streamed.map(\.record.transactionId) == ["2001"])
        #expect(streamed.allSatisfy { if case .failed = $0 { true } else { false } }, "never delivered")
    }

    @Test func aRestoreNeedsAPlayerAStoreAndAnAnsweringServer() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, transport) = (ScriptedStore(), CannedTransport())
        let anonymous = Self.pipeline(directory, store, transport, player: nil)
        try await anonymous.start()
        await #expect(throws: PurchaseError.noPlayerSignedIn) { try await anonymous.restore() }
        await anonymous.stop()

        let pipeline = Self.pipeline(directory, store, transport)
        try await pipeline.start()
        store.setAvailable(false)
        await #expect(throws: PurchaseError.storeUnavailable) { try await pipeline.restore() }

        store.setAvailable(true)
        store.set(current: [Self.vip], unfinished: [])
        transport.answer(200, Self.answer)
        await #expect(throws: ServerCallError.retryable(reason: "unreadable_answer")) { try await pipeline.restore() }
        transport.answer(503, #"{"error": "unavailable", "message": "down"}"#)
        await #expect(throws: ServerCallError.retryable(reason: "unavailable")) { try await pipeline.restore() }
        #expect(
            transport.requests(to: "/v1/purchases/restore").count == 2 * RetryPolicy().orderAttempts,
            "an unreadable answer is retried too")

        transport.answer(400, #"{"error": "invalid_request", "message": "bad"}"#)
        await #expect(throws: ServerCallError.rejected(reason: "invalid_request", message: "bad")) {
            try await pipeline.restore()
        }
        #expect(transport.requests(to: "/v1/purchases/restore").count == 2 * RetryPolicy().orderAttempts + 1)
        await pipeline.stop()
    }

    @Test func aRestoreWithNothingToRestoreAnswersTheEntitlements() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, transport) = (ScriptedStore(), CannedTransport())
        transport.answer(200, #"{"playerId": "rita", "asOf": 1, "entitlements": []}"#)
        let pipeline = Self.pipeline(directory, store, transport)
        try await pipeline.start()
        store.set(current: [], unfinished: [])
        let outcome = try await pipeline.restore()
        #expect(outcome.results.isEmpty)
        #expect(!outcome.entitlements.isCached && outcome.entitlements.entitlements.isEmpty)
        #expect(transport.requests(to: "/v1/purchases/restore").isEmpty)
        #expect(transport.requests(to: "/v1/players/me/entitlements").count == 1)
        await pipeline.stop()
    }

    /// StoreKit 1's restored transactions are not signed: they go by id with the receipt,
    /// refreshed when the device has none; without one the store is unavailable.
    @Test func unsignedTransactionsAreRestoredByIdWithTheReceipt() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, transport) = (ScriptedStore(), CannedTransport())
        let pipeline = Self.pipeline(directory, store, transport)
        try await pipeline.start()
        store.set(current: [Self.unsigned], unfinished: [])
        await #expect(throws: PurchaseError.storeUnavailable) { try await pipeline.restore() }
        #expect(store.receiptRequests == [false, true], "a missing receipt is refreshed once")
        #expect(transport.requests(to: "/v1/purchases/restore").isEmpty)

        store.setReceipt("cmVjZWlwdA==")
        transport.answer(
            200,
            """
            {"results": [{"transactionId": "1004", "originalTransactionId": "1004", "productId": "levelpack2",
                          "status": "restored"}],
             "entitlements": []}
            """)
        let outcome = try await pipeline.restore()
        let reported = try #require(transport.requests(to: "/v1/purchases/restore").first?.body)
        let body = try JSONSerialization.jsonObject(with: reported) as? NSDictionary
        #expect(body == ["receipt": "cmVjZWlwdA==", "transactionIds": ["1004"]])
        #expect(outcome.results.map(\.status) == [.restored])
        #expect(outcome.results.map(\.transactionId) == ["1004"])
        await pipeline.stop()
    }

    private static func transaction(_ id: String, _ productId: String) -> StoreTransaction {
        StoreTransaction(transactionId: id, productId: productId, appAccountToken: nil, signedTransaction: "jws-\(id)")
    }

    private static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("restore-\(UUID().uuidString.prefix(8))")
    }

    private static func pipeline(
        _ directory: URL, _ store: ScriptedStore, _ transport: CannedTransport, player: String? = "rita",
        crashAt boundary: PipelineBoundary? = nil
    ) -> PurchasePipeline {
        let journal = directory.appendingPathComponent("journal")
        let configuration = PipelineConfiguration(
            store: store, journal: FilePurchaseJournal(url: journal),
            server: PurchaseServerClient(baseURL: URL(string: "http://server.test")!, transport: transport),
            tokens: { "token-\($0)" }, clock: ManualClock(Date(timeIntervalSince1970: 1_800_000_000)),
            hooks: PipelineHooks { passed, _ in
                if passed == boundary { throw SimulatedCrash(at: passed) }
            },
            entitlementCache: FileEntitlementCache(besideJournalAt: journal))
        return PurchasePipeline(configuration: configuration, playerId: player)
    }
}

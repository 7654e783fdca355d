import Foundation
import PurchaseSDKEmulator
import Testing

@testable import PurchaseSDK

/// The entitlements the server answers: checked before they are trusted, cached beside the
/// journal, and served offline with each entitlement's `until` honoured by the device's clock.
@Suite struct EntitlementCacheTests {
    private static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// `vip` active for another hour, `levelpack1` permanent.
    private static func answer(playerId: String = "ella", since: Int64 = 1_799_000_000_000) -> String {
        let until = Int64(now.timeIntervalSince1970 * 1_000) + 3_600_000
        return """
            {"playerId": "\(playerId)", "asOf": 1800000000000, "entitlements": [
              {"entitlementId": "vip", "productId": "vip.monthly", "state": "active", "entitled": true,
               "since": \(since), "until": \(until), "autoRenew": true, "autoRenewProductId": "vip.monthly",
               "ownership": "PURCHASED", "transactionId": "2000000000000002",
               "originalTransactionId": "2000000000000001", "environment": "Sandbox"},
              {"entitlementId": "levelpack1", "productId": "levelpack1", "state": "active", "entitled": true,
               "since": 1799000000000, "until": null, "autoRenew": null, "autoRenewProductId": null,
               "ownership": "FAMILY_SHARED", "transactionId": "2000000000000003",
               "originalTransactionId": "2000000000000003", "environment": "Sandbox"}]}
            """
    }

    @Test func anAnswersEntitlementsAreReadWithTheirDates() throws {
        let answer = try JSONDecoder().decode(EntitlementsAnswer.self, from: Data(Self.answer().utf8))
        let entitlements = try answer.entitlements.map { try $0.entitlement() }
        #expect(entitlements.map(\.entitlementId) == ["vip", "levelpack1"])
        #expect(entitlements[0].state == .active && entitlements[0].entitled)
        #expect(entitlements[0].since == Date(timeIntervalSince1970: 1_799_000_000))
        #expect(entitlements[0].until == Self.now + 3_600)
        #expect(entitlements[0].autoRenew == true)
        #expect(entitlements[1].until == nil)
        #expect(entitlements[1].autoRenew == nil)
        #expect(entitlements[1].ownership == "FAMILY_SHARED")
    }

    @Test(arguments: [
        ("since", "-1"), ("until", "253402300800000"), ("originalTransactionId", #""""#), ("state", #""""#),
    ])
    func anEntitlementWithAFieldOutOfBoundsIsRefused(field: String, value: String) throws {
        var fields = [
            "entitlementId": #""vip""#, "productId": #""vip.monthly""#, "state": #""active""#, "entitled": "true",
            "since": "1", "until": "2", "ownership": #""PURCHASED""#, "transactionId": #""2""#,
            "originalTransactionId": #""1""#, "environment": #""Sandbox""#,
        ]
        let valid = try JSONDecoder().decode(EntitlementBody.self, from: Self.object(fields))
        #expect(try valid.entitlement().until == Date(timeIntervalSince1970: 0.002))
        fields[field] = value
        let body = try JSONDecoder().decode(EntitlementBody.self, from: Self.object(fields))
        #expect(throws: AnswerError(field: field)) { try body.entitlement() }
    }

    @Test func anEntitlementStandsByItsOwnFieldsOffline() {
        func entitlement(_ state: PlayerEntitlement.State, until: Date?) -> PlayerEntitlement {
            PlayerEntitlement(
                entitlementId: "vip", productId: "vip.monthly", state: state, entitled: state.entitles,
                since: .distantPast,
                until: until, transactionId: "2", originalTransactionId: "1", environment: "Sandbox")
        }
        let later = Self.now + 60
        let expiring = entitlement(.active, until: later).standing(at: later)
        #expect(expiring.state == .expired && !expiring.entitled, "until is exclusive")
        #expect(entitlement(.gracePeriod, until: later).standing(at: Self.now).entitled)
        #expect(entitlement(.active, until: nil).standing(at: .distantFuture).entitled)
        let retrying = entitlement(.billingRetry, until: later).standing(at: Self.now)
        #expect(retrying.state == .billingRetry && !retrying.entitled)
        let unknown = entitlement(PlayerEntitlement.State(rawValue: "paused"), until: nil).standing(at: Self.now)
        #expect(unknown.state.rawValue == "paused" && !unknown.entitled)
    }

    @Test func theCacheFileOutlivesItsActorAndAnUnreadableOneReadsAsEmpty() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("entitlements.json")
        let cached = CachedEntitlements(
            playerId: "ella", fetchedAt: Self.now, entitlements: try Self.entitlements(Self.answer()))
        try await FileEntitlementCache(url: url).store(cached)
        #expect(await FileEntitlementCache(url: url).load(playerId: "ella") == cached)
        #expect(await FileEntitlementCache(url: url).load(playerId: "other") == nil)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".tmp"))

        try Data("{\"players\": {\"ella\": {\"playerId\": ".utf8).write(to: url)
        #expect(await FileEntitlementCache(url: url).load(playerId: "ella") == nil)
        let rewritten = FileEntitlementCache(url: url)
        try await rewritten.store(cached)
        #expect(await FileEntitlementCache(url: url).load(playerId: "ella") == cached)
    }

    @Test func theCacheKeepsThePlayersFetchedMostRecently() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("entitlements.json")
        let cache = FileEntitlementCache(url: url, maximumPlayers: 2)
        for (offset, player) in ["ann", "ben", "cid"].enumerated() {
            try await cache.store(
                CachedEntitlements(playerId: player, fetchedAt: Self.now + Double(offset), entitlements: []))
        }
        let reread = FileEntitlementCache(url: url)
        #expect(await reread.load(playerId: "ann") == nil)
        #expect(await reread.load(playerId: "ben") != nil)
        #expect(await reread.load(playerId: "cid") != nil)
    }

    @Test func offlineTheCacheAnswersMarkedCachedAndDropsWhatIsPastItsUntil() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = CannedTransport()
        let clock = ManualClock(Self.now)
        transport.answer(200, Self.answer())
        let online = Self.pipeline(directory, transport, clock, player: "ella")
        let fresh = await online.entitlements()
        #expect(!fresh.isCached && fresh.fetchedAt == Self.now && fresh.refreshFailure == nil)
        #expect(fresh.entitledIds == ["vip", "levelpack1"])
        #expect(transport.paths == ["/v1/players/me/entitlements"])

        transport.goOffline()
        clock.advance(by: 60)
        let relaunched = Self.pipeline(directory, transport, clock, player: "ella")
        let offline = await relaunched.entitlements()
        #expect(offline.isCached && offline.fetchedAt == Self.now)
        #expect(offline.refreshFailure == "network_error")
        #expect(offline.entitlements == fresh.entitlements)

        clock.advance(by: 3_600)
        let lapsed = await relaunched.entitlements()
        #expect(lapsed.isCached && lapsed.entitledIds == ["levelpack1"])
        #expect(!lapsed.isEntitled(to: "vip"))
        #expect(lapsed.entitlements.first { $0.entitlementId == "vip" }?.state == .expired)
        #expect(await relaunched.entitlements(refresh: false) == lapsed.withoutRefreshFailure())

        let stranger = await Self.pipeline(directory, transport, clock, player: "finn").entitlements()
        #expect(stranger.isCached && stranger.fetchedAt == nil && stranger.entitlements.isEmpty)
        let nobody = await Self.pipeline(directory, transport, clock, player: nil).entitlements()
        #expect(nobody.playerId == nil && nobody.entitlements.isEmpty)
    }

    @Test func anAnswerOutOfBoundsOrAServerErrorServesTheCache() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = CannedTransport()
        let clock = ManualClock(Self.now)
        let pipeline = Self.pipeline(directory, transport, clock, player: "ella")
        transport.answer(200, Self.answer())
        let fresh = await pipeline.entitlements()

        transport.answer(200, Self.answer(since: -5))
        let unreadable = await pipeline.entitlements()
        #expect(unreadable.isCached && unreadable.refreshFailure == "unreadable_answer")
        #expect(unreadable.entitlements == fresh.entitlements)

        transport.answer(503, #"{"error": "unavailable", "message": "down"}"#)
        #expect(await pipeline.entitlements().refreshFailure == "unavailable")
    }

    private static func object(_ fields: [String: String]) -> Data {
        Data(("{" + fields.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}").utf8)
    }

    private static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("entitlements-\(UUID().uuidString.prefix(8))")
    }

    private static func entitlements(_ json: String) throws -> [PlayerEntitlement] {
        try JSONDecoder().decode(EntitlementsAnswer.self, from: Data(json.utf8)).entitlements.map {
            try $0.entitlement()
        }
    }

    /// A pipeline whose server is `transport`, its cache beside a journal in `directory`;
    /// its store is never asked.
    private static func pipeline(
        _ directory: URL, _ transport: CannedTransport, _ clock: ManualClock, player: String?
    ) -> PurchasePipeline {
        let journal = directory.appendingPathComponent("journal")
        let configuration = PipelineConfiguration(
            store: EmulatorStoreClient(baseURL: URL(string: "http://127.0.0.1:9")!, deviceId: "phone"),
            journal: FilePurchaseJournal(url: journal),
            server: PurchaseServerClient(baseURL: URL(string: "http://server.test")!, transport: transport),
            tokens: { "token-\($0)" }, clock: clock, entitlementCache: FileEntitlementCache(besideJournalAt: journal))
        return PurchasePipeline(configuration: configuration, playerId: player)
    }
}

extension EntitlementSnapshot {
    fileprivate func withoutRefreshFailure() -> EntitlementSnapshot {
        var snapshot = self
        snapshot.refreshFailure = nil
        return snapshot
    }
}

import Foundation
import PurchaseSDK
import Testing

@Suite(.timeLimit(.minutes(3))) struct JournalTests {
    private func temporaryJournal() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString.prefix(8))/journal")
    }

    private func record(_ player: String, at seconds: TimeInterval) -> PurchaseRecord {
        PurchaseRecord(playerId: player, productId: "coins100", now: Date(timeIntervalSince1970: seconds))
    }

    @Test func recordsSurviveAReopen() async throws {
        let url = temporaryJournal()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        var first = record("alice", at: 1)
        try await FilePurchaseJournal(url: url).write(first)
        first.state = .purchased
        first.transactionId = "2000000000000001"
        let journal = FilePurchaseJournal(url: url)
        try await journal.write(first)
        try await journal.write(record("bob", at: 2))

        let contents = try await FilePurchaseJournal(url: url).load()
        #expect(contents.damage.isEmpty)
        #expect(contents.records.map(\.playerId) == ["alice", "bob"])
        #expect(contents.records[0].state == .purchased)
        #expect(contents.records[0].transactionId == "2000000000000001")
    }

    @Test func aReinstallGetsTheRecordsBackFromTheMirror() async throws {
        let app = temporaryJournal()
        let keychain = temporaryJournal()
        defer {
            try? FileManager.default.removeItem(at: app.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: keychain.deletingLastPathComponent())
        }
        var paid = record("alice", at: 1)
        let before = MirroredPurchaseJournal(
            primary: FilePurchaseJournal(url: app), mirror: FilePurchaseJournal(url: keychain))
        try await before.write(paid)
        paid.state = .purchased
        paid.updatedAt = Date(timeIntervalSince1970: 2)
        try await before.write(paid)
        try await before.write(record("bob", at: 3))

        try FileManager.default.removeItem(at: app.deletingLastPathComponent())
        let after = MirroredPurchaseJournal(
            primary: FilePurchaseJournal(url: app), mirror: FilePurchaseJournal(url: keychain))
        let restored = try await after.load()
        #expect(restored.records.map(\.playerId) == ["alice", "bob"])
        #expect(restored.records.first?.state == .purchased, "the newest version of each record")
        let rewritten = try await FilePurchaseJournal(url: app).load()
        #expect(rewritten.records.map(\.id) == restored.records.map(\.id), "restored records are written back")

        // A newer version in the app's file wins over an older mirror.
        var finished = paid
        finished.state = .finished
        finished.updatedAt = Date(timeIntervalSince1970: 9)
        try await FilePurchaseJournal(url: app).write(finished)
        #expect(try await after.load().records.first?.state == .finished)
    }

    @Test func theMirrorRestoresOpenOrdersButNotClosedOnesThePrimaryForgot() async throws {
        let app = temporaryJournal()
        let keychain = temporaryJournal()
        defer {
            try? FileManager.default.removeItem(at: app.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: keychain.deletingLastPathComponent())
        }
        func journal() -> MirroredPurchaseJournal {
            MirroredPurchaseJournal(
                primary: FilePurchaseJournal(url: app, retention: JournalRetention(closedRecordLimit: 0)),
                mirror: FilePurchaseJournal(url: keychain))
        }
        var done = record("alice", at: 1)
        done.state = .finished
        done.transactionFinished = true
        try await journal().write(done)
        try await journal().write(record("bob", at: 2))
        #expect(try await FilePurchaseJournal(url: keychain).load().records.count == 2)

        let loaded = try await journal().load()
        #expect(loaded.records.map(\.playerId) == ["bob"])
        #expect(try await FilePurchaseJournal(url: app).load().records.map(\.playerId) == ["bob"])

        try FileManager.default.removeItem(at: app.deletingLastPathComponent())
        #expect(try await journal().load().records.map(\.playerId) == ["bob"], "after a reinstall too")
    }

    @Test func closedOrdersBeyondTheRetentionAreForgottenAndNothingOpenIs() async throws {
        let url = temporaryJournal()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        func order(_ name: String, _ state: PurchaseState, at seconds: TimeInterval, finished: Bool = false)
            -> PurchaseRecord
        {
            var record = record(name, at: seconds)
            record.state = state
            record.transactionId = state == .cancelled ? nil : "tx-\(name)"
            record.transactionFinished = finished
            return record
        }
        let open = [
            order("in-flight", .reported, at: 0), order("owed-finish", .delivered, at: 0),
            order("refused-unfinished", .failed(reason: "product_mismatch"), at: 0),
            order("ask-to-buy", .pending, at: 0),
        ]
        let closed = [
            order("old-refusal", .failed(reason: "transaction_revoked"), at: 1, finished: true),
            order("old-cancel", .cancelled, at: 2), order("first", .finished, at: 3, finished: true),
            order("second", .finished, at: 4, finished: true), order("third", .finished, at: 5, finished: true),
        ]
        let journal = FilePurchaseJournal(url: url, retention: JournalRetention(closedRecordLimit: 3))
        for record in open + closed { try await journal.write(record) }

        let kept = try await FilePurchaseJournal(url: url).load().records.map(\.playerId)
        #expect(Set(kept) == Set(open.map(\.playerId) + ["first", "second", "third"]))
    }

    @Test func aCorruptEntryIsReportedAndKeptAndTheRestRecovered() async throws {
        let url = temporaryJournal()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let journal = FilePurchaseJournal(url: url)
        let damaged = record("alice", at: 1)
        try await journal.write(damaged)
        try await journal.write(record("bob", at: 2))
        try await journal.write(record("carol", at: 3))
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[0] = lines[0].replacingOccurrences(of: "coins100", with: "coins999")
        lines[2] = String(lines[2].prefix(40))
        try (lines.joined(separator: "\n")).write(to: url, atomically: false, encoding: .utf8)

        let reopened = FilePurchaseJournal(url: url)
        let contents = try await reopened.load()
        #expect(contents.records.map(\.playerId) == ["bob"])
        #expect(contents.damage.map(\.line) == [1, 3])
        #expect(contents.damage.map(\.reason) == ["checksum_mismatch", "checksum_mismatch"])
        #expect(contents.damage[0].recordId == damaged.id)
        let kept = try String(contentsOf: reopened.damagedEntriesURL, encoding: .utf8)
        #expect(kept.contains("line 1 checksum_mismatch") && kept.contains(damaged.id))

        try await reopened.write(record("dave", at: 4))
        let rewritten = try await FilePurchaseJournal(url: url).load()
        #expect(rewritten.damage.isEmpty)
        #expect(rewritten.records.map(\.playerId) == ["bob", "dave"])
    }

    @Test func anUncommittedTemporaryFileIsIgnored() async throws {
        let url = temporaryJournal()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try await FilePurchaseJournal(url: url).write(record("alice", at: 1))
        try Data("deadbeef {\"half".utf8).write(to: url.appendingPathExtension("tmp"))

        let contents = try await FilePurchaseJournal(url: url).load()
        #expect(contents.records.map(\.playerId) == ["alice"])
        #expect(contents.damage.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: url.appendingPathExtension("tmp").path))
    }
}

@Suite(.timeLimit(.minutes(3))) struct RetryPolicyTests {
    @Test func waitsGrowExponentiallyUpToTheCap() {
        let policy = RetryPolicy(
            initialDelay: .milliseconds(100), maximumDelay: .seconds(1), multiplier: 2, jitter: 0)
        let waits = (1...6).map { policy.delay(afterFailures: $0, random: 0.3) }
        #expect(
            waits == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1),
                .seconds(1),
            ])
    }

    @Test func jitterTakesAShareOfEachWait() {
        let policy = RetryPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(10), jitter: 0.5)
        #expect(policy.delay(afterFailures: 2, random: 0) == .seconds(1))
        #expect(policy.delay(afterFailures: 2, random: 0.5) == .milliseconds(1_500))
        #expect(policy.delay(afterFailures: 2, random: 0.999_999_999) <= .seconds(2))
    }
}

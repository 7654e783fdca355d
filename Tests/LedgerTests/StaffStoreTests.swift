import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// The support console's accounts, sessions and audit log, on both stores.
@Suite("StaffStore (SQLite and PostgreSQL)")
struct StaffStoreTests {
    /// An account named `name` made at `now`.
    static func account(_ name: String, role: StaffRole = .agent, now: Date) -> StaffAccount {
        StaffAccount(
            name: name, role: role, passwordHash: "$2b$12$hash-of-\(name)", createdAt: now, passwordChangedAt: now)
    }

    /// A session of `name` begun at `now`, ending `lifetime` seconds later.
    static func session(_ name: String, now: Date, lifetime: TimeInterval = 3600) -> StaffSession {
        StaffSession(
            tokenDigest: UUID().uuidString, staffName: name, role: .viewer, csrfToken: UUID().uuidString,
            createdAt: now, lastSeenAt: now, expiresAt: now.addingTimeInterval(lifetime), address: "192.0.2.1")
    }

    @Test("accounts: created once, read back, listed by name", arguments: StoreKind.allCases)
    func accounts(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, _, clock in
            var bob = Self.account("bob", role: .admin, now: clock.now)
            bob.totpSecret = "JBSWY3DPEHPK3PXP"
            try await store.createStaff(bob)
            try await store.createStaff(Self.account("alice", role: .viewer, now: clock.now))
            #expect(try await store.staff(name: "bob") == bob)
            #expect(try await store.staff(name: "carol") == nil)
            #expect(try await store.staffAccounts().map(\.name) == ["alice", "bob"])

            await #expect(throws: LedgerError.duplicateStaff(name: "bob")) {
                try await store.createStaff(Self.account("bob", role: .viewer, now: clock.now))
            }
            #expect(try await store.staff(name: "bob") == bob, "the duplicate changed nothing")
        }
    }

    @Test(
        "the audit tally counts one actor's records of an action from one address since a time, with the newest time",
        arguments: StoreKind.allCases)
    func auditTally(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            let start = clock.now
            #expect(
                try await other.auditTally(
                    action: "sign_in_failed", actor: "bob", address: "198.51.100.7", since: start)
                    == AuditTally(count: 0, latest: nil))
            let records: [(actor: String, action: String, address: String)] = [
                ("bob", "sign_in_failed", "198.51.100.7"), ("bob", "sign_in_failed", "203.0.113.9"),
                ("bob", "sign_in_failed", "198.51.100.7"), ("alice", "sign_in_failed", "198.51.100.7"),
                ("bob", "sign_in", "198.51.100.7"), ("bob", "sign_in_failed", "198.51.100.7"),
            ]
            var times: [Date] = []
            for (index, record) in records.enumerated() {
                clock.advance(by: 10)
                times.append(clock.now)
                try await (index.isMultiple(of: 2) ? store : other).appendAudit(
                    AuditRecord(
                        actor: record.actor, action: record.action, address: record.address, createdAt: clock.now))
            }
            let bob = try await other.auditTally(
                action: "sign_in_failed", actor: "bob", address: "198.51.100.7", since: start)
            #expect(bob == AuditTally(count: 3, latest: times[5]), "another instance sees every one")
            #expect(
                try await store.auditTally(
                    action: "sign_in_failed", actor: "bob", address: "198.51.100.7", since: times[2])
                    == AuditTally(count: 2, latest: times[5]), "from `since` on, inclusive")
            #expect(
                try await store.auditTally(
                    action: "sign_in_failed", actor: "bob", address: "198.51.100.7",
                    since: times[5].addingTimeInterval(1))
                    == AuditTally(count: 0, latest: nil))
            #expect(
                try await store.auditTally(action: "sign_in_failed", actor: "bob", address: "203.0.113.9", since: start)
                    == AuditTally(count: 1, latest: times[1]))
            #expect(
                try await store.auditTally(
                    action: "sign_in_failed", actor: "alice", address: "198.51.100.7", since: start)
                    == AuditTally(count: 1, latest: times[3]))
            #expect(
                try await store.auditTally(action: "sign_in", actor: "bob", address: "198.51.100.7", since: start)
                    == AuditTally(count: 1, latest: times[4]))
            #expect(
                try await store.auditTally(
                    action: "sign_in_failed", actor: "BOB", address: "198.51.100.7", since: start)
                    == AuditTally(count: 0, latest: nil), "actors compare exactly")
        }
    }

    @Test(
        "a password reset sets the password, enables the account and ends its sessions", arguments: StoreKind.allCases)
    func reset(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            var bob = Self.account("bob", now: clock.now)
            bob.totpSecret = "OLDSECRET"
            try await store.createStaff(bob)
            try await store.createStaff(Self.account("alice", now: clock.now))
            _ = try await store.disableStaff(name: "bob")
            let sessions = [Self.session("bob", now: clock.now), Self.session("bob", now: clock.now)]
            for session in sessions { try await store.createStaffSession(session) }
            let alices = Self.session("alice", now: clock.now)
            try await store.createStaffSession(alices)

            clock.advance(by: 5)
            #expect(try await other.resetStaffPassword(name: "bob", passwordHash: "new-hash", totpSecret: nil))
            let reset = try #require(try await store.staff(name: "bob"))
            #expect(reset.passwordHash == "new-hash")
            #expect(reset.totpSecret == nil)
            #expect(reset.disabledAt == nil)
            #expect(reset.passwordChangedAt == clock.now)
            #expect(reset.createdAt == bob.createdAt)
            for session in sessions {
                #expect(try await store.useStaffSession(tokenDigest: session.tokenDigest, idleTimeout: 600) == nil)
            }
            #expect(
                try await store.useStaffSession(tokenDigest: alices.tokenDigest, idleTimeout: 600) != nil,
                "another account's session stays")

            #expect(try await store.resetStaffPassword(name: "bob", passwordHash: "h", totpSecret: "NEW") == true)
            #expect(try await store.staff(name: "bob")?.totpSecret == "NEW")
            #expect(try await store.resetStaffPassword(name: "nobody", passwordHash: "h", totpSecret: nil) == false)
        }
    }

    @Test(
        "disabling an account ends its sessions; a disabled account's session is refused", arguments: StoreKind.allCases
    )
    func disable(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            try await store.createStaff(Self.account("bob", now: clock.now))
            let session = Self.session("bob", now: clock.now)
            try await store.createStaffSession(session)
            let used = try #require(try await other.useStaffSession(tokenDigest: session.tokenDigest, idleTimeout: 60))
            #expect(used.role == .agent, "the role comes from the account")
            #expect(used.staffName == "bob")
            #expect(used.csrfToken == session.csrfToken)

            clock.advance(by: 1)
            #expect(try await other.disableStaff(name: "bob"))
            #expect(try await store.staff(name: "bob")?.disabledAt == clock.now)
            #expect(try await store.useStaffSession(tokenDigest: session.tokenDigest, idleTimeout: 60) == nil)

            clock.advance(by: 1)
            #expect(try await other.disableStaff(name: "bob"), "disabling again is harmless")
            #expect(
                try await store.staff(name: "bob")?.disabledAt == clock.now.addingTimeInterval(-1), "first time kept")
            let late = Self.session("bob", now: clock.now)
            try await store.createStaffSession(late)
            #expect(try await store.useStaffSession(tokenDigest: late.tokenDigest, idleTimeout: 60) == nil)
            #expect(try await store.disableStaff(name: "nobody") == false)
        }
    }

    @Test("a session ends after its idle time and at its end, and on sign-out", arguments: StoreKind.allCases)
    func sessionExpiry(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            try await store.createStaff(Self.account("bob", role: .admin, now: clock.now))
            let start = clock.now
            let idle = Self.session("bob", now: start, lifetime: 3600)
            try await store.createStaffSession(idle)

            clock.advance(by: 300)
            let used = try #require(try await other.useStaffSession(tokenDigest: idle.tokenDigest, idleTimeout: 600))
            #expect(used.role == .admin)
            #expect(used.lastSeenAt == clock.now)
            #expect(used.createdAt == start)
            #expect(used.expiresAt == start.addingTimeInterval(3600))
            clock.advance(by: 600)
            #expect(
                try await store.useStaffSession(tokenDigest: idle.tokenDigest, idleTimeout: 600) != nil,
                "used exactly the idle time ago")
            clock.advance(by: 601)
            #expect(try await store.useStaffSession(tokenDigest: idle.tokenDigest, idleTimeout: 600) == nil, "idle")
            #expect(
                try await store.useStaffSession(tokenDigest: idle.tokenDigest, idleTimeout: 100_000) == nil,
                "and deleted")

            let absolute = Self.session("bob", now: clock.now, lifetime: 100)
            try await store.createStaffSession(absolute)
            clock.advance(by: 60)
            #expect(try await store.useStaffSession(tokenDigest: absolute.tokenDigest, idleTimeout: 100_000) != nil)
            clock.advance(by: 40)
            #expect(
                try await store.useStaffSession(tokenDigest: absolute.tokenDigest, idleTimeout: 100_000) == nil,
                "at its end")

            let signedOut = Self.session("bob", now: clock.now)
            try await store.createStaffSession(signedOut)
            try await other.deleteStaffSession(tokenDigest: signedOut.tokenDigest)
            try await other.deleteStaffSession(tokenDigest: signedOut.tokenDigest)
            #expect(try await store.useStaffSession(tokenDigest: signedOut.tokenDigest, idleTimeout: 600) == nil)
            #expect(try await store.useStaffSession(tokenDigest: "unknown", idleTimeout: 600) == nil)
        }
    }

    @Test("the audit log pages newest first, by actor, and counts a window", arguments: StoreKind.allCases)
    func audit(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            let start = clock.now
            var appended: [AuditRecord] = []
            for (index, actor) in ["alice", "bob", "alice", "bob", "alice"].enumerated() {
                let record = AuditRecord(
                    actor: actor, action: "view_player", target: "player-\(index)", detail: ["n": String(index)],
                    address: "192.0.2.1", createdAt: clock.now)
                let stored = try await (index.isMultiple(of: 2) ? store : other).appendAudit(record)
                #expect(stored.id != nil)
                var expected = record
                expected.id = stored.id
                #expect(stored == expected)
                appended.append(stored)
                clock.advance(by: 1)
            }
            let newestFirst = Array(appended.reversed())
            #expect(try await store.auditRecords(beforeId: nil, limit: 10, actor: nil) == newestFirst)
            let firstPage = try await store.auditRecords(beforeId: nil, limit: 2, actor: nil)
            #expect(firstPage == Array(newestFirst[0..<2]))
            let secondPage = try await store.auditRecords(beforeId: firstPage.last?.id, limit: 2, actor: nil)
            #expect(secondPage == Array(newestFirst[2..<4]))
            #expect(try await store.auditRecords(beforeId: secondPage.last?.id, limit: 2, actor: nil) == [appended[0]])
            #expect(
                try await store.auditRecords(beforeId: nil, limit: 10, actor: "alice")
                    == [appended[4], appended[2], appended[0]])
            #expect(
                try await store.auditRecords(beforeId: appended[4].id, limit: 1, actor: "alice") == [appended[2]])
            #expect(try await store.auditRecords(beforeId: nil, limit: 10, actor: "carol") == [])

            for address in ["198.51.100.7", "198.51.100.7", "203.0.113.9"] {
                try await store.appendAudit(
                    AuditRecord(actor: "mallory", action: "sign_in_failed", address: address, createdAt: clock.now))
                clock.advance(by: 10)
            }
            #expect(try await other.auditCount(action: "sign_in_failed", address: "198.51.100.7", since: start) == 2)
            #expect(
                try await other.auditCount(
                    action: "sign_in_failed", address: "198.51.100.7", since: clock.now.addingTimeInterval(-25)) == 1)
            #expect(try await other.auditCount(action: "sign_in_failed", address: "192.0.2.1", since: start) == 0)
            #expect(try await other.auditCount(action: "view_player", address: "192.0.2.1", since: start) == 5)
        }
    }
}

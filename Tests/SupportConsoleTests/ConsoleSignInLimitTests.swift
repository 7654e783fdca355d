import Foundation
import Ledger
import LedgerTestSupport
import Logging
import PurchaseServer
import Testing

@testable import SupportConsole

/// The sign-in rule of docs/SECURITY.md ("Staff sign-in"): failures make one name wait at one
/// address, never lock the account, and answer alike for names that exist and names that do
/// not. The decisions are taken at times and addresses the tests choose.
@Suite("Support console: sign-in delays per name and address", .timeLimit(.minutes(5)))
struct ConsoleSignInLimitTests {
    static let attacker = "198.51.100.7"
    static let office = "203.0.113.9"
    static let wrong = "not-the-password"

    /// Now, in whole seconds (the ledger keeps milliseconds), so that waits come out exact.
    static func wholeSecondNow() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    @Test("the delay: free failures, then 1 s doubling per failure up to the longest; second factor checks bounded")
    func delayRule() {
        let delay = SignInDelay(settings: ConsoleSettings(lockAfterFailures: 3, lockSeconds: 60))
        let latest = Date(timeIntervalSince1970: 1_800_000_000)
        let waits = (0...10).map { count in
            delay.nextAttempt(after: AuditTally(count: count, latest: latest))?.timeIntervalSince(latest)
        }
        #expect(waits == [nil, nil, nil, 1, 2, 4, 8, 16, 32, 60, 60])
        #expect(delay.nextAttempt(after: AuditTally(count: 10_000, latest: latest)) == latest.addingTimeInterval(60))
        #expect(
            (0...8).map { delay.checksSecondFactor(after: AuditTally(count: $0, latest: latest)) } == [
                true, true, true, true, true, true, false, false, false,
            ])
        let defaults = SignInDelay(settings: ServerConfiguration().console)
        #expect(defaults == SignInDelay(settings: ConsoleSettings(lockAfterFailures: 5, lockSeconds: 900)))
    }

    @Test(
        "an attacker's failures make the name wait at the attacker's address, each wait twice the last; the real user elsewhere signs in",
        arguments: StoreKind.allCases)
    func attackerWaitsUserDoesNot(kind: StoreKind) async throws {
        let settings = ConsoleSettings(lockAfterFailures: 3, lockSeconds: 60, signInFailuresPerAddress: 100)
        try await withConsole(kind, settings: settings) { fixture in
            let login = try await fixture.addStaff("dan", role: .viewer)
            let console = try await fixture.core(settings)
            var now = Self.wholeSecondNow()
            for _ in 0..<3 {
                let answer = try await console.attempt("dan", Self.wrong, from: Self.attacker, at: now)
                #expect(answer == SignInAnswer(code: "invalid_credentials", status: 401))
            }
            var waits: [Int?] = []
            for _ in 0..<8 {
                let early = try await console.attempt("dan", Self.wrong, from: Self.attacker, at: now)
                #expect(early.code == "rate_limited" && early.status == 429)
                let right = try await console.attempt("dan", login.password, from: Self.attacker, at: now)
                #expect(right == early, "the right password waits like any other at this address")
                waits.append(early.retryAfter)
                now += TimeInterval(early.retryAfter ?? 0)
                let checked = try await console.attempt("dan", Self.wrong, from: Self.attacker, at: now)
                #expect(
                    checked == SignInAnswer(code: "invalid_credentials", status: 401), "after the wait it is checked")
            }
            #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60])

            let elsewhere = try await console.attempt("dan", login.password, from: Self.office, at: now)
            #expect(elsewhere == SignInAnswer(code: nil, status: 303), "the account is not locked")
            let store = try await fixture.store
            #expect(try await store.staff(name: "dan")?.disabledAt == nil)
            now += 60
            let afterTheWait = try await console.attempt("dan", login.password, from: Self.attacker, at: now)
            #expect(
                afterTheWait == SignInAnswer(code: nil, status: 303), "nor at the attacker's address after the wait")
            let failures = try await store.auditRecords(beforeId: nil, limit: 100, actor: "dan")
                .filter { $0.action == "sign_in_failed" }
            #expect(failures.count == 11, "only checked attempts are failures; a wait is not one")
        }
    }

    @Test(
        "a name that exists, a disabled one and one that does not: the same answers, audit records and password checks throughout",
        arguments: StoreKind.allCases)
    func sameAnswersForEveryName(kind: StoreKind) async throws {
        let settings = ConsoleSettings(lockAfterFailures: 2, lockSeconds: 60, signInFailuresPerAddress: 100)
        try await withConsole(kind, settings: settings) { fixture in
            let eli = try await fixture.addStaff("eli", role: .agent)
            try await fixture.addStaff("gus", role: .agent)
            _ = try await fixture.store.disableStaff(name: "gus")
            let console = try await fixture.core(settings)
            let probe = try await fixture.core(settings, passwordChecksFree: false)
            let start = Self.wholeSecondNow()
            // (seconds after the start, password, code): eli's right password is a wrong one for the others.
            let steps: [(TimeInterval, String, String)] = [
                (0, Self.wrong, ""), (0, Self.wrong, ""), (0, Self.wrong, ""), (0, eli.password, ""),
                (0, Self.wrong, "123456"), (0, eli.password, "123456"), (1, Self.wrong, ""), (3, Self.wrong, ""),
                (3, Self.wrong, "000000"), (3, Self.wrong, "000000"), (3, eli.password, "000000"),
                (100, Self.wrong, ""),
                (100, Self.wrong, ""), (500, Self.wrong, ""),
            ]
            var sequences: [String: [String]] = [:]
            for name in ["eli", "gus", "ghost"] {
                for (offset, password, code) in steps {
                    let now = start.addingTimeInterval(offset)
                    let checks = try await probe.attempt(name, password, code: code, from: Self.attacker, at: now)
                    let answer = try await console.attempt(name, password, code: code, from: Self.attacker, at: now)
                    let tally = try await fixture.store.auditTally(
                        action: "sign_in_failed", actor: name, address: Self.attacker, since: start)
                    sequences[name, default: []].append(
                        "\(offset) \(answer) checks a password: \(checks.code == "sign_in_busy") failures: \(tally.count)"
                    )
                }
            }
            #expect(sequences["eli"] == sequences["ghost"])
            #expect(sequences["gus"] == sequences["ghost"])
            let codes = Set((sequences["eli"] ?? []).map { $0.split(separator: " ")[1] })
            #expect(codes == ["invalid_credentials", "rate_limited"], "\(sequences["eli"] ?? [])")
        }
    }

    @Test(
        "an account with a second factor signs in with password and code while its name waits at that address; such tries are bounded",
        arguments: StoreKind.allCases)
    func secondFactorWhileWaiting(kind: StoreKind) async throws {
        let settings = ConsoleSettings(lockAfterFailures: 2, lockSeconds: 60, signInFailuresPerAddress: 100)
        try await withConsole(kind, settings: settings) { fixture in
            let fay = try await fixture.addStaff("fay", role: .agent, totp: true)
            let secret = try #require(fay.totpSecret)
            let console = try await fixture.core(settings)
            let probe = try await fixture.core(settings, passwordChecksFree: false)
            var now = Self.wholeSecondNow()
            let code = { (date: Date) in StaffCredentials.totpCode(secret: secret, at: date) }
            let wrongCode = { (date: Date) in code(date.addingTimeInterval(300)) }
            for _ in 0..<2 {
                #expect(
                    try await console.attempt("fay", Self.wrong, from: Self.attacker, at: now).code
                        == "invalid_credentials")
            }
            let waiting = SignInAnswer(code: "rate_limited", status: 429, retryAfter: 1)
            #expect(try await console.attempt("fay", fay.password, from: Self.attacker, at: now) == waiting)
            let signedIn = try await console.attempt("fay", fay.password, code: code(now), from: Self.attacker, at: now)
            #expect(signedIn == SignInAnswer(code: nil, status: 303))

            // Failures while waiting answer like the wait (which they lengthen), up to the bound.
            let wrongPassword = try await console.attempt(
                "fay", Self.wrong, code: code(now), from: Self.attacker, at: now)
            #expect(wrongPassword == SignInAnswer(code: "rate_limited", status: 429, retryAfter: 2))
            let wrongCodeAnswer = try await console.attempt(
                "fay", fay.password, code: wrongCode(now), from: Self.attacker, at: now)
            #expect(wrongCodeAnswer == SignInAnswer(code: "rate_limited", status: 429, retryAfter: 4))
            // Four failures, twice the free ones: no more checks until the wait has passed.
            let checks = try await probe.attempt("fay", fay.password, code: code(now), from: Self.attacker, at: now)
            #expect(checks == SignInAnswer(code: "rate_limited", status: 429, retryAfter: 4), "no password check")
            let bounded = try await console.attempt("fay", fay.password, code: code(now), from: Self.attacker, at: now)
            #expect(bounded == SignInAnswer(code: "rate_limited", status: 429, retryAfter: 4))
            let failures = try await fixture.store.auditTally(
                action: "sign_in_failed", actor: "fay", address: Self.attacker, since: now.addingTimeInterval(-1))
            #expect(failures.count == 4)

            #expect(
                try await console.attempt("fay", fay.password, code: code(now), from: Self.office, at: now).status
                    == 303)
            now += 4
            #expect(
                try await console.attempt("fay", fay.password, code: code(now), from: Self.attacker, at: now).status
                    == 303)
        }
    }

    @Test("the per-address limit still holds across names, without a password check; other addresses sign in")
    func perAddressLimit() async throws {
        let settings = ConsoleSettings(lockAfterFailures: 5, signInFailuresPerAddress: 3)
        try await withConsole(settings: settings) { fixture in
            let ivy = try await fixture.addStaff("ivy", role: .viewer)
            let console = try await fixture.core(settings)
            let probe = try await fixture.core(settings, passwordChecksFree: false)
            let now = Self.wholeSecondNow()
            for name in ["x1", "x2", "ivy"] {
                #expect(
                    try await console.attempt(name, Self.wrong, from: Self.attacker, at: now).code
                        == "invalid_credentials")
            }
            let refused = SignInAnswer(code: "rate_limited", status: 429)
            #expect(try await probe.attempt("ivy", ivy.password, from: Self.attacker, at: now) == refused)
            #expect(try await console.attempt("ivy", ivy.password, from: Self.attacker, at: now) == refused)
            #expect(try await console.attempt("x4", Self.wrong, from: Self.attacker, at: now) == refused)
            #expect(try await console.attempt("ivy", ivy.password, from: Self.office, at: now).status == 303)
            let later = now.addingTimeInterval(settings.signInWindowSeconds + 1)
            #expect(try await console.attempt("ivy", ivy.password, from: Self.attacker, at: later).status == 303)
        }
    }

    @Test(
        "over HTTP: a waiting name gets 429 rate_limited with Retry-After, whether it exists or not; the staff page shows it active"
    )
    func overHTTP() async throws {
        let settings = ConsoleSettings(lockAfterFailures: 2, lockSeconds: 600, signInFailuresPerAddress: 100)
        try await withConsole(settings: settings) { fixture in
            let login = try await fixture.addStaff("jay", role: .viewer)
            let store = try await fixture.store
            // Twelve failures from this address just now (as another instance would record
            // them): the longest wait, 600 s, which no slow machine outlasts before the sign-in.
            for name in ["jay", "nobody"] {
                for _ in 0..<12 {
                    try await store.appendAudit(
                        AuditRecord(actor: name, action: "sign_in_failed", address: "127.0.0.1", createdAt: Date()))
                }
            }
            let browser = await fixture.browser()
            var answers: [String] = []
            for (name, password) in [("jay", login.password), ("nobody", login.password)] {
                let answer = try await browser.signIn(name: name, password: password)
                #expect(answer.status == 429)
                #expect(answer.errorCode == "rate_limited")
                #expect(answer.setCookie("sk_session") == nil)
                let seconds = try #require(answer.header("retry-after").flatMap(Int.init))
                #expect((300...600).contains(seconds), "twelve failures, two free: the longest wait, 600 s")
                answers.append("\(answer.status) \(answer.errorCode ?? "")")
            }
            #expect(answers[0] == answers[1])

            let admin = try await fixture.signedIn("kay", role: .admin)
            let staff = try await admin.get("/console/staff")
            let row = try #require(staff.body.range(of: #"<tr data-name="jay""#))
            let rest = staff.body[row.lowerBound...]
            let cells = rest[..<(rest.range(of: "</tr>")?.lowerBound ?? rest.endIndex)]
            #expect(cells.contains(#"<span class="state state-ok">"#), "jay is shown active: \(cells)")
        }
    }
}

/// What a sign-in answered, as tests compare it.
struct SignInAnswer: Equatable, CustomStringConvertible {
    /// The refusal's code; `nil` when signed in.
    var code: String?
    /// 303 when signed in, else the refusal's status.
    var status: Int
    /// The refusal's `Retry-After`, in seconds.
    var retryAfter: Int?

    var description: String { "\(code ?? "signed_in") \(status) retry-after \(retryAfter.map(String.init) ?? "-")" }
}

extension ConsoleCore {
    /// Decides a sign-in of `name` with `password` and `code` from `address` at `now`.
    func attempt(_ name: String, _ password: String, code: String = "", from address: String, at now: Date)
        async throws -> SignInAnswer
    {
        switch try await authenticate(name: name, password: password, code: code, address: address, at: now) {
        case .success: SignInAnswer(code: nil, status: 303)
        case .failure(let error):
            SignInAnswer(code: error.code, status: Int(error.status.code), retryAfter: error.retryAfter)
        }
    }
}

extension ConsoleFixture {
    /// A console on this fixture's server and ledger with `settings` (at the tests' bcrypt
    /// cost), whose decisions tests take at the times and addresses they choose. With
    /// `passwordChecksFree` false its one password check slot is taken, so that an attempt
    /// that would check a password answers `sign_in_busy` (and records nothing) instead.
    func core(_ settings: ConsoleSettings, passwordChecksFree: Bool = true) async throws -> ConsoleCore {
        var settings = settings
        settings.passwordHashCost = Int(Self.testBcryptCost)
        let core = try SupportConsole(
            server: try await stack.server, store: try await store, settings: settings, secureCookies: false,
            logger: Logger(label: "storekeeper-console-test")
        ).core
        guard !passwordChecksFree else { return core }
        let slots = PasswordCheckSlots(limit: 1)
        _ = await slots.enter()
        return ConsoleCore(
            server: core.server, store: core.store, settings: core.settings, secureCookies: core.secureCookies,
            logger: core.logger, renderer: core.renderer, staticFiles: core.staticFiles, passwordChecks: slots)
    }
}

import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

@testable import SupportConsole

@Suite("Support console: sign-in, sessions, CSRF, roles", .timeLimit(.minutes(5)))
struct ConsoleAuthTests {
    @Test("a sign-in sets an HttpOnly, SameSite=Strict session cookie for /console; the ledger keeps only its digest")
    func signInSetsTheSessionCookie() async throws {
        try await withConsole { fixture in
            let login = try await fixture.addStaff("ana", role: .admin)
            let browser = await fixture.browser()
            let unauthenticated = try await browser.get("/console/audit?actor=x")
            #expect(unauthenticated.status == 303)
            #expect(unauthenticated.header("location") == "/console/sign-in?next=/console/audit%3Factor%3Dx")

            let page = try await browser.get("/console/sign-in")
            #expect(page.status == 200)
            #expect(page.body.contains(#"<form id="sign-in""#))
            let signInCookie = try #require(page.setCookie("sk_signin"))
            #expect(signInCookie.contains("HttpOnly") && signInCookie.contains("SameSite=Strict"))

            let answer = try await browser.signIn(login, next: "/console/audit")
            #expect(answer.status == 303)
            #expect(answer.header("location") == "/console/audit")
            let cookie = try #require(answer.setCookie("sk_session"))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
            #expect(cookie.contains("Path=/console"))
            #expect(!cookie.contains("Secure"))
            let token = try #require(await browser.cookies["sk_session"])
            #expect(token.count == 43)

            let store = try await fixture.store
            #expect(try await store.useStaffSession(tokenDigest: token, idleTimeout: 600) == nil)
            let session = try #require(
                try await store.useStaffSession(tokenDigest: ConsoleTokens.digest(token), idleTimeout: 600))
            #expect(session.staffName == "ana")
            #expect(session.address == "127.0.0.1")

            let home = try await browser.get("/console/")
            #expect(home.status == 200)
            #expect(home.body.contains(#"<span id="staff-name">ana</span>"#))
            #expect(home.body.contains(#"data-role="admin""#))
            #expect(home.body.contains(#"<form id="search""#))
            #expect(home.body.contains(#"<form id="sign-out""#))

            let records = try await store.auditRecords(beforeId: nil, limit: 10, actor: "ana")
            #expect(records.map(\.action) == ["sign_in"])
            #expect(records.first?.address == "127.0.0.1")
        }
    }

    @Test("a new session on every sign-in: the old cookie's session ends")
    func noSessionFixation() async throws {
        try await withConsole { fixture in
            let login = try await fixture.addStaff("ben", role: .viewer)
            let browser = await fixture.browser()
            _ = try await browser.signIn(login)
            let first = try #require(await browser.cookies["sk_session"])
            _ = try await browser.signIn(login)
            let second = try #require(await browser.cookies["sk_session"])
            #expect(first != second)
            let store = try await fixture.store
            #expect(try await store.useStaffSession(tokenDigest: ConsoleTokens.digest(first), idleTimeout: 600) == nil)
        }
    }

    @Test("a wrong password or an unknown name: invalid_credentials, audited as sign_in_failed with the name tried")
    func wrongPassword() async throws {
        try await withConsole { fixture in
            let login = try await fixture.addStaff("cai", role: .agent)
            let browser = await fixture.browser()
            let wrong = try await browser.signIn(name: "cai", password: login.password + "x")
            #expect(wrong.status == 401)
            #expect(wrong.errorCode == "invalid_credentials")
            #expect(wrong.setCookie("sk_session") == nil)
            let unknown = try await browser.signIn(name: "nobody", password: "whatever-it-is")
            #expect(unknown.errorCode == "invalid_credentials")
            let store = try await fixture.store
            let failures = try await store.auditRecords(beforeId: nil, limit: 10, actor: nil)
                .filter { $0.action == "sign_in_failed" }
            #expect(Set(failures.map(\.actor)) == ["cai", "nobody"])
            #expect(failures.allSatisfy { $0.address == "127.0.0.1" })
            #expect(Set(failures.compactMap { $0.detail["reason"] }) == ["password", "unknown_name"])
        }
    }

    @Test("an address with too many recent failures is refused without a password check")
    func rateLimitPerAddress() async throws {
        try await withConsole(settings: ConsoleSettings(signInFailuresPerAddress: 2)) { fixture in
            let login = try await fixture.addStaff("eve", role: .viewer)
            let browser = await fixture.browser()
            _ = try await browser.signIn(name: "x1", password: "wrong-password-1")
            _ = try await browser.signIn(name: "x2", password: "wrong-password-2")
            let refused = try await browser.signIn(login)
            #expect(refused.status == 429)
            #expect(refused.errorCode == "rate_limited")
            let failures = try await fixture.store.auditRecords(beforeId: nil, limit: 10, actor: "eve")
            #expect(failures.isEmpty, "refused without a check, so no failure of eve's")
        }
    }

    @Test("an account with TOTP needs the code: missing, wrong, right")
    func totp() async throws {
        try await withConsole { fixture in
            let login = try await fixture.addStaff("fay", role: .agent, totp: true)
            let secret = try #require(login.totpSecret)
            let browser = await fixture.browser()
            #expect(try await browser.signIn(login).errorCode == "code_required")
            let current = StaffCredentials.totpCode(secret: secret)
            let wrong = String(current.map { $0 == "9" ? "0" : Character(String(($0.wholeNumberValue ?? 0) + 1)) })
            #expect(try await browser.signIn(login, code: wrong).errorCode == "invalid_code")
            #expect(
                try await browser.signIn(name: "fay", password: "wrong-password", code: current).errorCode
                    == "invalid_credentials")
            let right = try await browser.signIn(login, code: StaffCredentials.totpCode(secret: secret))
            #expect(right.status == 303)
            #expect(right.setCookie("sk_session") != nil)
        }
    }

    @Test("a disabled account cannot sign in")
    func disabledAccount() async throws {
        try await withConsole { fixture in
            let login = try await fixture.addStaff("gus", role: .admin)
            _ = try await fixture.store.disableStaff(name: "gus")
            let answer = try await (await fixture.browser()).signIn(login)
            #expect(answer.errorCode == "invalid_credentials")
        }
    }

    @Test("forms without the right CSRF token, or from another origin, are refused with 403 and change nothing")
    func csrf() async throws {
        try await withConsole { fixture in
            let admin = try await fixture.signedIn("hal", role: .admin)
            let token = try #require(try await admin.get("/console/staff").csrfField)
            let missing = try await admin.post("/console/staff", form: [("name", "new1"), ("role", "viewer")])
            #expect(missing.status == 403)
            #expect(missing.errorCode == "csrf_failed")
            let wrong = try await admin.post(
                "/console/staff", form: [("name", "new2"), ("role", "viewer"), ("csrf", String(token.reversed()))])
            #expect(wrong.errorCode == "csrf_failed")
            let foreign = try await admin.post(
                "/console/staff", form: [("name", "new3"), ("role", "viewer"), ("csrf", token)],
                headers: [("Origin", "http://evil.example")])
            #expect(foreign.errorCode == "csrf_failed")
            let signOut = try await admin.post("/console/sign-out", form: [])
            #expect(signOut.errorCode == "csrf_failed")
            let store = try await fixture.store
            #expect(try await store.staffAccounts().map(\.name) == ["hal"])

            let sameOrigin = try await admin.post(
                "/console/staff", form: [("name", "new4"), ("role", "viewer"), ("csrf", token)],
                headers: [("Origin", admin.base)])
            #expect(sameOrigin.status == 200)
            #expect(try await store.staffAccounts().map(\.name) == ["hal", "new4"])
        }
    }

    @Test("the sign-in form needs its double-submit cookie")
    func signInCSRF() async throws {
        try await withConsole { fixture in
            let login = try await fixture.addStaff("ida", role: .viewer)
            let browser = await fixture.browser()
            let page = try await browser.get("/console/sign-in")
            let token = try #require(page.csrfField)
            await browser.setCookie("sk_signin", nil)
            let answer = try await browser.post(
                "/console/sign-in", form: [("csrf", token), ("name", login.name), ("password", login.password)])
            #expect(answer.status == 403)
            #expect(answer.errorCode == "csrf_failed")
            #expect(answer.setCookie("sk_session") == nil)
        }
    }

    @Test("unauthenticated: pages redirect to the sign-in page, posts are refused")
    func unauthenticated() async throws {
        try await withConsole { fixture in
            let browser = await fixture.browser()
            let page = try await browser.get("/console/")
            #expect(page.status == 303)
            #expect(page.header("location") == "/console/sign-in?next=/console/")
            let post = try await browser.post("/console/staff", form: [("name", "x"), ("role", "admin")])
            #expect(post.status == 403)
            #expect(post.errorCode == "session_required")
            await browser.setCookie("sk_session", String(repeating: "A", count: 43))
            #expect(try await browser.get("/console/").status == 303)
        }
    }

    @Test("a sign-in only sends the browser back to a console path")
    func nextIsLocal() async throws {
        try await withConsole { fixture in
            let login = try await fixture.addStaff("jo", role: .viewer)
            let browser = await fixture.browser()
            for next in ["https://evil.example/", "//evil.example/console/", "/console/\\evil", "/v1/products"] {
                let answer = try await browser.signIn(login, next: next)
                #expect(answer.header("location") == "/console/", "next \(next)")
            }
        }
    }

    @Test("a viewer gets 403 on admin pages and actions; a refused action is audited")
    func roles() async throws {
        try await withConsole { fixture in
            let viewer = try await fixture.signedIn("kim", role: .viewer)
            let audit = try await viewer.get("/console/audit")
            #expect(audit.status == 403)
            #expect(audit.errorCode == "forbidden")
            #expect(!audit.body.contains(#"id="nav-audit""#))
            let post = try await viewer.submit("/console/staff", form: [("name", "x"), ("role", "admin")])
            #expect(post.status == 403)
            #expect(post.errorCode == "forbidden")
            let store = try await fixture.store
            #expect(try await store.staffAccounts().count == 1)
            let refused = try await store.auditRecords(beforeId: nil, limit: 10, actor: "kim")
                .first { $0.action == "action_forbidden" }
            #expect(refused?.target == "/console/staff")
            #expect(refused?.detail["role"] == "viewer")
        }
    }

    @Test("a session unused for the idle time, or past its lifetime, has ended")
    func idleExpiry() async throws {
        try await withConsole { fixture in
            try await fixture.addStaff("lou", role: .viewer)
            let store = try await fixture.store
            let now = Date()
            let idle = ConsoleTokens.random()
            let old = ConsoleTokens.random()
            let fresh = ConsoleTokens.random()
            for (token, lastSeen, expires) in [
                (idle, now.addingTimeInterval(-3_600), now.addingTimeInterval(3_600)),
                (old, now.addingTimeInterval(-5), now.addingTimeInterval(-1)),
                (fresh, now.addingTimeInterval(-5), now.addingTimeInterval(3_600)),
            ] {
                try await store.createStaffSession(
                    StaffSession(
                        tokenDigest: ConsoleTokens.digest(token), staffName: "lou", role: .viewer,
                        csrfToken: ConsoleTokens.random(), createdAt: lastSeen, lastSeenAt: lastSeen,
                        expiresAt: expires, address: "127.0.0.1"))
            }
            let browser = await fixture.browser()
            for (token, expected) in [(idle, 303), (old, 303), (fresh, 200)] {
                await browser.setCookie("sk_session", token)
                #expect(try await browser.get("/console/").status == expected)
            }
        }
    }

    @Test("signing out ends the session, clears the cookie and is audited", arguments: StoreKind.allCases)
    func signOut(kind: StoreKind) async throws {
        try await withConsole(kind) { fixture in
            let browser = try await fixture.signedIn("max", role: .agent)
            let token = try #require(await browser.cookies["sk_session"])
            let answer = try await browser.submit("/console/sign-out", form: [])
            #expect(answer.status == 303)
            #expect(answer.header("location") == "/console/sign-in?notice=signed_out")
            #expect(answer.setCookie("sk_session")?.contains("Max-Age=0") == true)
            let page = try await browser.get("/console/sign-in?notice=signed_out")
            #expect(page.noticeCode == "signed_out")
            await browser.setCookie("sk_session", token)
            #expect(try await browser.get("/console/").status == 303)
            let actions = try await fixture.store.auditRecords(beforeId: nil, limit: 10, actor: "max").map(\.action)
            #expect(actions == ["sign_out", "sign_in"])
        }
    }
}

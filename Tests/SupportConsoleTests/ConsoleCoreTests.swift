import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

@testable import SupportConsole

@Suite("Support console: resources, rendering, static files, languages, staff and audit pages", .timeLimit(.minutes(5)))
struct ConsoleCoreTests {
    // MARK: Resources

    @Test("both languages have the same string keys, and every string is non-empty")
    func localeKeyParity() throws {
        let resources = try ConsoleResources.bundled()
        let english = try #require(resources.strings[.english])
        let chinese = try #require(resources.strings[.simplifiedChinese])
        #expect(!english.isEmpty)
        #expect(Set(english.keys).subtracting(chinese.keys).sorted() == [])
        #expect(Set(chinese.keys).subtracting(english.keys).sorted() == [])
        #expect(english.filter { $0.value.isEmpty }.keys.sorted() == [])
        #expect(chinese.filter { $0.value.isEmpty }.keys.sorted() == [])
        #expect(chinese["sign_out"] == "退出")
    }

    @Test("every error and notice code of the contract has a string")
    func codesHaveStrings() throws {
        let strings = try #require(try ConsoleResources.bundled().strings[.english])
        let errors = [
            "invalid_credentials", "rate_limited", "sign_in_busy", "code_required", "invalid_code", "csrf_failed",
            "forbidden", "not_found", "over_limit", "reason_required", "invalid_amount", "apple_unavailable",
            "not_configured", "already_delivered", "nothing_found", "session_required", "unexpected",
        ]
        #expect(errors.filter { strings["error_\($0)"] == nil } == [])
        #expect(["delivered", "granted", "signed_out"].filter { strings["notice_\($0)"] == nil } == [])
    }

    @Test("every template parses, and the layout wraps a page with the chrome")
    func rendering() throws {
        let renderer = try ConsoleRenderer(resources: try ConsoleResources.bundled())
        var page = ConsolePage(template: "error", titleKey: "title_error", values: ["searchQuery": "<q>"])
        page.error = ConsoleError(code: "not_found", detail: "<script>")
        let session = StaffSession(
            tokenDigest: "d", staffName: "a<b", role: .agent, csrfToken: "tok", createdAt: Date(), lastSeenAt: Date(),
            expiresAt: Date(), address: "x")
        let html = renderer.render(
            page,
            chrome: ConsoleChrome(
                language: .simplifiedChinese, session: session, csrf: "tok", location: "/console/x?y=1", notice: nil))
        #expect(html.contains(#"<html lang="zh-Hans">"#))
        #expect(html.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#))
        #expect(html.contains(#"<span id="staff-name">a&lt;b</span>"#))
        #expect(html.contains(#"id="error" class="message message-error" role="alert" data-code="not_found""#))
        #expect(html.contains("&lt;script&gt;"))
        #expect(!html.contains("<script>"))
        #expect(html.contains(#"value="&lt;q&gt;""#))
        #expect(html.contains(#"href="/console/language?to=en&amp;back=/console/x%3Fy%3D1""#))
        #expect(html.contains(#"<a id="lang-zh""#))
        #expect(html.contains(#"name="csrf" value="tok""#))
        #expect(!html.contains(#"id="nav-audit""#))
        #expect(!html.contains("style="))
    }

    @Test("every shown value is escaped byte by byte, a quote with a combining mark too; plain text is untouched")
    func escaping() throws {
        let escaping = ConsoleHTMLEscaping()
        #expect(
            escaping.escapeText(#"<a href="x">Tom & 'Jerry'</a>"#)
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;")
        // One character each for swift-mustache's own escaping, which left them whole.
        #expect(escaping.escapeText("\"\u{301} onclick=x") == "&quot;\u{301} onclick=x")
        #expect(escaping.escapeText("<\u{338}'\u{20DD}") == "&lt;\u{338}&#39;\u{20DD}")
        #expect(escaping.escapeText("玩家 é ✓ plain") == "玩家 é ✓ plain")
        #expect(escaping.escapeText("") == "")

        // Through a real page: the layout and the page's template both escape this way, and
        // a template's first standalone line stays standalone (no blank line is added).
        let renderer = try ConsoleRenderer(resources: try ConsoleResources.bundled())
        let session = StaffSession(
            tokenDigest: "d", staffName: "a", role: .agent, csrfToken: "tok", createdAt: Date(), lastSeenAt: Date(),
            expiresAt: Date(), address: "x")
        var page = ConsolePage(template: "error", titleKey: "title_error", values: ["searchQuery": "\"\u{301}><b>"])
        page.titleDetail = "'\u{301}<i>"
        let html = renderer.render(
            page,
            chrome: ConsoleChrome(language: .english, session: session, csrf: "tok", location: "/console/", notice: nil)
        )
        #expect(html.contains("value=\"&quot;\u{301}&gt;&lt;b&gt;\""))
        #expect(html.contains("&#39;\u{301}&lt;i&gt;"))
        #expect(!html.contains("<b>") && !html.contains("<i>"))
        #expect(html.hasPrefix("<!doctype html>\n<html"))
    }

    // MARK: Formats and parsing

    @Test("dates in UTC, amounts with their sign")
    func formats() {
        let date = Date(timeIntervalSince1970: 1_795_839_218)
        #expect(ConsoleFormat.date(date, language: .english) == "2026-11-28 04:13:38 UTC")
        #expect(ConsoleFormat.day(date) == "2026-11-28")
        #expect(ConsoleFormat.amount(1_000) == "+1,000")
        #expect(ConsoleFormat.amount(-5) == "\u{2212}5")
        #expect(ConsoleFormat.amount(0) == "0")
        #expect(ConsoleFormat.amount(Int64.min) == "\u{2212}9,223,372,036,854,775,808")
        #expect(ConsoleFormat.count(1_234_567) == "1,234,567")
    }

    @Test("dates: the same text as Foundation's Gregorian calendar in UTC, fractions and negatives included")
    func datesAgreeWithCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var samples: [TimeInterval] = [0, -0.5, -1, 86_399.999, 86_400, 951_782_400, 4_107_542_399, -2_208_988_800.25]
        var generator = SystemRandomNumberGenerator()
        // 1582 to 2400: Foundation's calendar is Julian before 1582, the console's proleptic.
        samples += (0..<2_000).map { _ in Double.random(in: -12_219_292_800...13_569_465_600, using: &generator) }
        for sample in samples {
            let date = Date(timeIntervalSince1970: sample)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let expected = String(
                format: "%d-%02d-%02d %02d:%02d:%02d UTC", parts.year!, parts.month!, parts.day!, parts.hour!,
                parts.minute!, parts.second!)
            #expect(ConsoleFormat.date(date) == expected, "\(sample)")
        }
        #expect(ConsoleFormat.date(Date(timeIntervalSince1970: .nan)) == "1970-01-01 00:00:00 UTC")
        #expect(ConsoleFormat.date(.distantFuture) == "4001-01-01 00:00:00 UTC")
        #expect(ConsoleFormat.date(Date(timeIntervalSince1970: .infinity)).hasSuffix(" UTC"))
    }

    @Test("links: ids percent-encoded byte by byte exactly as Foundation's addingPercentEncoding does")
    func linkEncoding() {
        var query = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        query.insert(charactersIn: "-._~/")
        var segment = query
        segment.remove("/")
        var samples = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        samples += [
            "player-0", "a/b?c=d&e", "jos\u{E9}", "e\u{301}", "玩家 1", "🎮+%", "", "100%/..", "\u{7F}\u{80}\u{FFFF}",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let scalars = (0..<Int.random(in: 1...12, using: &generator)).compactMap { _ in
                UnicodeScalar(UInt32.random(in: 0...0x1_0FFF, using: &generator))
            }
            samples.append(String(String.UnicodeScalarView(scalars)))
        }
        for sample in samples {
            #expect(
                ConsoleURL.queryValue(sample) == sample.addingPercentEncoding(withAllowedCharacters: query),
                "\(sample.unicodeScalars.map(\.value))")
            #expect(
                ConsoleURL.pathSegment(sample) == sample.addingPercentEncoding(withAllowedCharacters: segment),
                "\(sample.unicodeScalars.map(\.value))")
        }
        #expect(ConsoleLinks.player("a/b c") == "/console/players/a%2Fb%20c")
        #expect(ConsoleURL.queryValue("/console/x?y=1") == "/console/x%3Fy%3D1")
    }

    @Test("forms: percent escapes and + decoded, the first of repeated keys wins, undecodable pairs dropped")
    func forms() {
        let form = ConsoleForm(urlEncoded: "a=1+2%2B3&b=%E4%BD%A0&a=second&c&bad=%ZZ&=x&d=x%3Dy")
        #expect(form["a"] == "1 2+3")
        #expect(form["b"] == "你")
        #expect(form["c"] == "")
        #expect(form["bad"] == nil)
        #expect(form["d"] == "x=y")
        #expect(form.fields.count == 4)
    }

    @Test("Accept-Language: zh, zh-CN, zh-Hans, zh-SG are Simplified Chinese; the rest English")
    func acceptLanguage() {
        for header in ["zh", "zh-CN", "zh-Hans", "zh-SG", "zh-Hans-CN", "zh-CN,zh;q=0.9,en;q=0.8", "fr, zh;q=0.5"] {
            #expect(ConsoleLanguage.preferred(acceptLanguage: header) == .simplifiedChinese, "\(header)")
        }
        for header in ["en-US", "zh-TW", "de", "", "en;q=0.9, zh-CN;q=0.8", "zh;q=0, en"] {
            #expect(ConsoleLanguage.preferred(acceptLanguage: header) == .english, "\(header)")
        }
        #expect(ConsoleLanguage.preferred(acceptLanguage: nil) == .english)
    }

    @Test("tokens: 43 base64url characters, compared whole")
    func tokens() {
        let token = ConsoleTokens.random()
        #expect(ConsoleTokens.isWellFormed(token))
        #expect(!ConsoleTokens.isWellFormed(token + "="))
        #expect(ConsoleTokens.matches(token, token))
        #expect(!ConsoleTokens.matches(String(token.dropLast()) + "x", token) || token.hasSuffix("x"))
        #expect(!ConsoleTokens.matches("", ""))
        #expect(!ConsoleTokens.matches(nil, token))
        #expect(ConsoleTokens.digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("staff names: letters, digits, . _ -, 1 to 64")
    func staffNames() {
        #expect(StaffNames.problem(with: "ana.b_c-9") == nil)
        for name in ["", String(repeating: "a", count: 65), "a b", "ä", "a/b", "<x>"] {
            #expect(StaffNames.problem(with: name) != nil, "\(name)")
        }
    }

    // MARK: Over HTTP

    @Test("static files by name only, with their content types and Cache-Control; no traversal")
    func staticFiles() async throws {
        try await withConsole { fixture in
            let browser = await fixture.browser()
            let css = try await browser.get("/console/static/console.css")
            #expect(css.status == 200)
            #expect(css.header("content-type") == "text/css; charset=utf-8")
            #expect(css.header("cache-control") == "public, max-age=3600")
            #expect(css.header("x-content-type-options") == "nosniff")
            let js = try await browser.get("/console/static/console.js")
            #expect(js.header("content-type") == "text/javascript; charset=utf-8")
            for path in [
                "/console/static/..%2Ftemplates%2Flayout.mustache", "/console/static/../templates/layout.mustache",
                "/console/static/%2E%2E%2F%2E%2E%2FPackage.swift", "/console/static/missing.css",
                "/console/static/templates/layout.mustache",
            ] {
                let answer = try await browser.get(path)
                #expect(answer.status == 404, "\(path)")
                #expect(!answer.body.contains("{{"), "\(path)")
            }
        }
    }

    @Test("every console answer carries the security headers; pages are not cached")
    func securityHeaders() async throws {
        try await withConsole { fixture in
            let browser = await fixture.browser()
            for path in ["/console/sign-in", "/console/", "/console/nothing-here", "/console/static/nope"] {
                let answer = try await browser.get(path)
                #expect(
                    answer.header("content-security-policy")
                        == "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                        + "frame-ancestors 'none'; form-action 'self'", "\(path)")
                #expect(answer.header("x-content-type-options") == "nosniff", "\(path)")
                #expect(answer.header("referrer-policy") == "same-origin", "\(path)")
                let permissions = answer.header("permissions-policy") ?? ""
                for feature in ["camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"] {
                    #expect(permissions.contains(feature), "\(path): \(permissions)")
                }
                #expect(answer.header("cache-control") == "no-store", "\(path)")
            }
            let missing = try await browser.get("/console/nothing-here")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")
            let wrongMethod = try await browser.get("/console/sign-out")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("allow") == "POST")
            #expect(wrongMethod.errorCode == "method_not_allowed")
            #expect(try await browser.get("/v1/nothing").body.contains("unknown_path"))
        }
    }

    @Test("the language comes from the cookie, else Accept-Language; the switch sets the cookie and goes back")
    func languages() async throws {
        try await withConsole { fixture in
            let browser = await fixture.browser()
            let english = try await browser.get("/console/sign-in")
            #expect(english.body.contains(#"<html lang="en">"#))
            let chinese = try await browser.get("/console/sign-in", headers: [("Accept-Language", "zh-CN,zh;q=0.9")])
            #expect(chinese.body.contains(#"<html lang="zh-Hans">"#))
            #expect(chinese.body.contains("登录"))
            let switched = try await browser.get(
                "/console/language?to=zh-Hans&back=/console/sign-in%3Fnext%3D/console/owed")
            #expect(switched.status == 303)
            #expect(switched.header("location") == "/console/sign-in?next=/console/owed")
            let cookie = try #require(switched.setCookie("sk_lang"))
            #expect(cookie.hasPrefix("sk_lang=zh-Hans") && cookie.contains("Path=/console"))
            #expect(try await browser.get("/console/sign-in").body.contains(#"<html lang="zh-Hans">"#))
            let back = try await browser.get("/console/language?to=en&back=https://evil.example/")
            #expect(back.header("location") == "/console/")
            #expect(
                try await browser.get("/console/sign-in", headers: [("Accept-Language", "zh")]).body.contains(
                    #"<html lang="en">"#))
        }
    }

    @Test("admins add staff (password shown once), reset passwords and disable accounts; each audited")
    func staffPages() async throws {
        try await withConsole { fixture in
            let admin = try await fixture.signedIn("root", role: .admin)
            let list = try await admin.get("/console/staff")
            #expect(list.status == 200)
            #expect(list.body.contains(#"<tr data-name="root" data-role="admin""#))
            let added = try await admin.submit(
                "/console/staff", form: [("name", "sue"), ("role", "agent"), ("totp", "1")], from: "/console/staff")
            #expect(added.status == 200)
            #expect(added.noticeCode == "staff_added")
            let password = try #require(Self.code(id: "new-password", in: added.body))
            let secret = try #require(Self.code(id: "totp-secret", in: added.body))
            #expect(added.body.contains("otpauth://totp/"))
            let sue = await fixture.browser()
            let signedIn = try await sue.signIn(
                StaffLogin(name: "sue", password: password), code: StaffCredentials.totpCode(secret: secret))
            #expect(signedIn.status == 303)

            let duplicate = try await admin.submit(
                "/console/staff", form: [("name", "sue"), ("role", "viewer")], from: "/console/staff")
            #expect(duplicate.errorCode == "duplicate_staff")
            let invalid = try await admin.submit(
                "/console/staff", form: [("name", "no spaces"), ("role", "viewer")], from: "/console/staff")
            #expect(invalid.errorCode == "invalid_name")

            let reset = try await admin.submit(
                "/console/staff/sue/reset-password", form: [("totp", "remove")], from: "/console/staff")
            #expect(reset.noticeCode == "password_reset")
            let newPassword = try #require(Self.code(id: "new-password", in: reset.body))
            #expect(try await sue.get("/console/").status == 303)
            #expect(try await sue.signIn(StaffLogin(name: "sue", password: newPassword)).status == 303)

            let disabled = try await admin.submit("/console/staff/sue/disable", form: [], from: "/console/staff")
            #expect(disabled.status == 303)
            #expect(disabled.header("location") == "/console/staff?notice=staff_disabled")
            #expect(try await sue.get("/console/").status == 303)
            let own = try await admin.submit("/console/staff/root/disable", form: [], from: "/console/staff")
            #expect(own.errorCode == "cannot_disable_self")

            let actions = try await fixture.store.auditRecords(beforeId: nil, limit: 50, actor: "root").map(\.action)
            for action in ["view_staff", "staff_add", "staff_reset_password", "staff_disable"] {
                #expect(actions.contains(action), "\(action)")
            }
            let audit = try await admin.get("/console/audit?actor=root")
            #expect(audit.status == 200)
            #expect(audit.body.contains(#"<table id="audit">"#))
            #expect(audit.body.contains(#"<tr data-action="staff_disable""#))
            #expect(audit.body.contains(#"<tr data-action="sign_in""#))
            #expect(!audit.body.contains(#"data-action="sign_in_failed""#))
            #expect(
                try await fixture.store.auditRecords(beforeId: nil, limit: 1, actor: "root").first?.action
                    == "view_audit")
        }
    }

    @Test("the audit log pages with before= and a rel=next link")
    func auditPaging() async throws {
        try await withConsole { fixture in
            let store = try await fixture.store
            for index in 0..<120 {
                try await store.appendAudit(
                    AuditRecord(
                        actor: "bot", action: "search", target: "q\(index)", address: "local", createdAt: Date()))
            }
            let admin = try await fixture.signedIn("boss", role: .admin)
            let first = try await admin.get("/console/audit?actor=bot")
            #expect(first.count("<tr data-action=") == 100)
            let next = try #require(ConsoleAnswer.attribute("href", ofElementWithId: "audit-next", in: first.body))
            let second = try await admin.get(next.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(second.count("<tr data-action=") == 20)
            #expect(second.body.contains(">q0<"))
            #expect(!second.body.contains(#"rel="next""#))
        }
    }

    @Test("dev-admin: created on first use, its password reset on the next")
    func devAdmin() async throws {
        try await withConsole { fixture in
            let store = try await fixture.store
            let first = try await DevAdmin.prepare(store: store)
            #expect(try await store.staff(name: "dev-admin")?.role == .admin)
            let browser = await fixture.browser()
            #expect(try await browser.signIn(name: "dev-admin", password: first).status == 303)
            let second = try await DevAdmin.prepare(store: store)
            #expect(first != second)
            #expect(try await browser.get("/console/").status == 303)
            #expect(try await browser.signIn(name: "dev-admin", password: first).errorCode == "invalid_credentials")
            #expect(try await browser.signIn(name: "dev-admin", password: second).status == 303)
        }
    }

    @Test("home shows the search box and the owed count")
    func home() async throws {
        try await withConsole { fixture in
            let viewer = try await fixture.signedIn("vic", role: .viewer)
            let home = try await viewer.get("/console/")
            #expect(home.status == 200)
            #expect(home.body.contains(#"<span class="tile-figure" id="owed-count">0</span>"#))
            #expect(home.body.contains(#"name="q""#))
            #expect(home.body.contains(#"id="nav-owed""#))
            #expect(!home.body.contains(#"id="nav-staff""#))
        }
    }

    private static func code(id: String, in html: String) -> String? {
        guard let range = html.range(of: #"id="\#(id)">"#) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "<" })
    }
}

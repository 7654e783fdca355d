import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

@testable import SupportConsole

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Hostile input to the console, signed in as an agent and signed out: odd path and query
/// parameters (percent escapes, invalid UTF-8, `..`, NUL, very long), odd forms, cookies and
/// headers, out-of-range numbers, raw bytes. Nothing gets a 5xx, every refusal has a stable
/// `data-code`, refused requests change nothing, and the server keeps answering. PostgreSQL
/// too, whose text cannot hold NUL.
@Suite("Support console: hostile input", .serialized, .timeLimit(.minutes(5)))
struct ConsoleHostileInputTests {
    /// Settings that leave the per-address sign-in limit out of the way of the battery.
    static let settings = ConsoleSettings(signInFailuresPerAddress: 10_000)

    /// The change actions of the audit log (refusals such as `grant_refused` and `action_forbidden` aside).
    static let changeActions: Set<String> = [
        "manual_grant", "run_reconciler", "staff_add", "staff_disable", "staff_reset_password",
    ]

    // MARK: Pages

    @Test(
        "odd paths, queries, cookies and headers: never a 5xx, a code on every refusal", arguments: StoreKind.allCases)
    func pages(kind: StoreKind) async throws {
        try await withConsole(kind, settings: Self.settings) { fixture in
            _ = try await fixture.store.createOrder(
                Order(
                    orderId: "order-1", playerId: "carol", productId: "coins100", appAccountToken: UUID().uuidString,
                    createdAt: Date(), expiresAt: Date().addingTimeInterval(3_600)))
            let agent = try await fixture.signedIn("ann", role: .agent)
            let long = String(repeating: "x", count: 5_000)
            let paths = [
                "/console/players/%00", "/console/players/a%00b", "/console/players/%FF", "/console/players/%E2%82",
                "/console/players/%", "/console/players/%zz", "/console/players/..", "/console/players/%2E%2E",
                "/console/players/%2E%2E%2Fstaff", "/console/players/%0D%0ASet-Cookie:%20x=1",
                "/console/players/%3Cscript%3Ealert(1)%3C%2Fscript%3E", "/console/players/" + long,
                "/console/players/carol?before=99999999999999999999999",
                "/console/players/carol?before=-9223372036854775808", "/console/players/carol?before=%00",
                "/console/players/carol?before=1e3&before=2", "/console/transactions/%00",
                "/console/transactions/" + long, "/console/transactions/%C0%AF", "/console/orders/%00",
                "/console/orders/order-1%00", "/console/apple-orders/%00", "/console/apple-orders/MK%E2%80%8B1",
                "/console/apple-orders/" + long, "/console/search?q=%00", "/console/search?q=carol%00",
                "/console/search?q=%FF%FE", "/console/search?q=%", "/console/search?q=%zz",
                "/console/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E", "/console/search?q=" + long,
                "/console/search?q=a&q=b", "/console/audit?actor=%00&before=99999999999999999999",
                "/console/?notice=%3Cscript%3Ealert(1)%3C%2Fscript%3E", "/console/?notice=granted%00",
                "/console/?notice=" + long, "/console/owed?x=%00", "/console/overview",
                "/console/static/..%2F..%2FPackage.swift", "/console/static/%00", "/console/static/console.css%00",
                "/console/static/" + long, "/console/staff/ann/disable", "/console/nowhere/%00",
                "/console/language?to=%00&back=%00", "/console/sign-in?next=%00",
            ]
            // Sent raw: an HTTP client would not send some of these paths as they are.
            let port = try Self.port(of: agent.base)
            let session = await agent.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            for cookie in [session, ""] {
                for path in paths {
                    let answer = try await RawHTTP.send(
                        port: port,
                        head: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n"
                            + "Connection: close\r\n\r\n", body: [])
                    #expect(answer.status >= 200 && answer.status < 500, "\(path): \(answer.status)")
                    if answer.status >= 400 { #expect(answer.errorCode != nil, "\(path): no code") }
                    if answer.status == 303 {
                        let location = answer.location ?? ""
                        #expect(location.hasPrefix("/console/") && !location.contains("//"), "\(path) → \(location)")
                    }
                    #expect(!answer.body.contains("<script>alert"), "\(path) reflected markup")
                }
            }
            // The agent's session survived all that, and the process answers.
            #expect(try await agent.get("/console/players/carol").status == 200)
            #expect(try await agent.get("/console/players/%00").errorCode == "not_found")
            #expect(try await agent.get("/console/search?q=carol%00").errorCode == "nothing_found")
            let searches = try await fixture.audit("search", actor: "ann")
            #expect(searches.contains { $0.target == "carol\u{FFFD}" }, "the NUL query is audited, printable")
            try await Self.expectNothingChanged(fixture, player: "carol")
        }
    }

    @Test("redirect targets (back, next) never leave the console")
    func redirects() async throws {
        try await withConsole(settings: Self.settings) { fixture in
            let browser = await fixture.browser()
            for back in [
                "//evil.example", "https://evil.example/console/", "/console//evil.example", "/console/\\evil.example",
                "/console/%0D%0ASet-Cookie:%20x=1", "%2F%2Fevil.example", "/console/%09/evil", "javascript:alert(1)",
                String(repeating: "/console/a", count: 1_000),
            ] {
                let encoded = back.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                for path in ["/console/language?to=zh-Hans&back=" + encoded, "/console/language?back=" + back] {
                    let answer = try await browser.get(path)
                    #expect(answer.status == 303, "\(path)")
                    let location = try #require(answer.location)
                    #expect(location.hasPrefix("/console/") && !location.contains("//"), "\(path) → \(location)")
                    #expect(!location.unicodeScalars.contains { $0.value < 0x20 }, "\(path) → \(location)")
                }
                let signIn = try await browser.get("/console/sign-in?next=" + encoded)
                #expect(signIn.status == 200)
                let next = try #require(signIn.body.range(of: #"name="next" value=""#)).upperBound
                let value = signIn.body[next...].prefix { $0 != "\"" }
                #expect(value.hasPrefix("/console/") && !value.contains("//"), "\(back) → \(value)")
                #expect(back.hasPrefix("/console/") || value == "/console/", "\(back) → \(value)")
            }
        }
    }

    @Test("garbage cookies and odd headers: a redirect to sign-in or a page, never a 5xx")
    func cookiesAndHeaders() async throws {
        try await withConsole(settings: Self.settings) { fixture in
            let browser = await fixture.browser()
            for value in [
                "x", String(repeating: "A", count: 43), String(repeating: "a", count: 3_000), "\"quoted\"", "%00",
                "a;b", "",
            ] {
                await browser.setCookie("sk_session", value)
                await browser.setCookie("sk_lang", value)
                await browser.setCookie("sk_signin", value)
                let answer = try await browser.get("/console/players/carol")
                #expect(answer.status == 303, "sk_session=\(value)")
                let signIn = try await browser.get("/console/sign-in")
                #expect(signIn.status == 200, "cookies \(value)")
                #expect(signIn.body.contains(#"<html lang="en">"#))
            }
            let many = (0..<200).map { ("Cookie", "c\($0)=\($0)") }
            #expect(try await browser.get("/console/sign-in", headers: many).status == 200)
            for language in [
                "zh;q=nan, en;q=inf", "*", "", ";;;,,,", "zh;q=-1", "zh;q=1e999",
                String(repeating: "zh-,", count: 2_000),
                "zh-Hans-CN;q=0.5,en;q=0.4",
            ] {
                let answer = try await browser.get("/console/sign-in", headers: [("Accept-Language", language)])
                #expect(answer.status == 200, "Accept-Language: \(language)")
            }
            let chinese = try await browser.get(
                "/console/sign-in", headers: [("Accept-Language", "zh-Hans-CN;q=0.5,en;q=0.4")])
            #expect(chinese.body.contains(#"<html lang="zh-Hans">"#))
        }
    }

    // MARK: Forms

    @Test("hostile forms as an agent: stable codes, nothing written", arguments: StoreKind.allCases)
    func forms(kind: StoreKind) async throws {
        try await withConsole(kind, settings: Self.settings) { fixture in
            _ = try await fixture.store.grantManually(
                playerId: "carol", grants: ["coins": 5], reason: "start", actor: "test")
            let agent = try await fixture.signedIn("ann", role: .agent)
            let page = "/console/players/carol"
            let grants = "/console/players/carol/grants"
            func grant(_ amount: String, item: String = "coins", reason: String = "goodwill") async throws
                -> ConsoleAnswer
            {
                try await agent.submit(
                    grants, form: [("item", item), ("amount", amount), ("reason", reason), ("confirmed", "1")],
                    from: page)
            }
            for amount in [
                "5e3", "-0", "0", "0x10", "5.0", "--5", "- 5", "9223372036854775808", "-9223372036854775809",
                "-9223372036854775808", "9223372036854775807", "1000000000001", "\u{FF15}", "5\u{0}", "", " ",
                String(repeating: "9", count: 10_000),
            ] {
                let answer = try await grant(amount)
                #expect(answer.status == 400, "amount \(amount.debugDescription): \(answer)")
                #expect(answer.errorCode == "invalid_amount", "amount \(amount.debugDescription)")
            }
            for (item, code) in [
                ("coins\u{0}", "invalid_item"), ("<script>alert(1)</script>", "invalid_item"),
                (String(repeating: "c", count: 10_000), "invalid_item"), ("", "invalid_item"),
            ] {
                let answer = try await grant("5", item: item)
                #expect(answer.errorCode == code, "item \(item.prefix(20).debugDescription): \(answer)")
                #expect(!answer.body.contains("<script>alert"))
            }
            for reason in ["a\u{0}b", "\u{1B}[31mred", "bell\u{7}", "c1\u{85}x"] {
                let answer = try await grant("5", reason: reason)
                #expect(answer.errorCode == "invalid_reason", "reason \(reason.debugDescription): \(answer)")
            }
            // Over the agent's limit (1,000), in either direction.
            #expect(try await grant("1001").errorCode == "over_limit")
            #expect(try await grant("-1001").errorCode == "over_limit")
            // "+5" and " 5 " are five: the confirmation page, nothing granted yet.
            for amount in ["+5", " 5 "] {
                let confirm = try await agent.submit(
                    grants, form: [("item", "coins"), ("amount", amount), ("reason", "goodwill")], from: page)
                #expect(confirm.status == 200, "\(amount)")
                #expect(confirm.body.contains(#"<form id="grant-confirm""#))
            }
            let views = try await fixture.audit("view_player", actor: "ann")
            #expect(views.filter { $0.detail["page"] == "grant_confirm" }.count == 2, "confirmations are audited")

            // Deliver: a player id with a NUL, too long, or none; odd transaction ids.
            for (path, playerId, code) in [
                ("/console/owed/1000/deliver", "carol\u{0}", "player_required"),
                ("/console/owed/1000/deliver", String(repeating: "p", count: 300), "player_required"),
                ("/console/owed/1000/deliver", " ", "player_required"),
                ("/console/owed/%00/deliver", "carol", "not_found"),
                ("/console/owed/" + String(repeating: "7", count: 100) + "/deliver", "carol", "not_found"),
            ] {
                let answer = try await agent.submit(path, form: [("playerId", playerId)])
                #expect(answer.errorCode == code, "\(path) \(playerId.prefix(20).debugDescription): \(answer)")
                Self.expectRefusalHasCode(answer, path)
            }

            // Admin's actions, forbidden to an agent whatever the form says.
            for (path, form) in [
                ("/console/staff", [("name", "mallory"), ("role", "admin")]),
                ("/console/staff/ann/reset-password", [("totp", "new")]),
                ("/console/staff/ann/disable", []),
            ] {
                let answer = try await agent.submit(path, form: form)
                #expect(answer.status == 403, "\(path)")
                #expect(answer.errorCode == "forbidden", "\(path)")
            }

            // CSRF: missing, wrong, repeated (the first wins), another origin.
            let token = try #require(try await agent.get(page).csrfField)
            let fields = [("item", "coins"), ("amount", "5"), ("reason", "x"), ("confirmed", "1")]
            for (form, headers) in [
                (fields, [(String, String)]()),
                (fields + [("csrf", "wrong")], []),
                (fields + [("csrf", String(token.dropLast()) + (token.hasSuffix("A") ? "B" : "A"))], []),
                (fields + [("csrf", "wrong"), ("csrf", token)], []),
                (fields + [("csrf", token)], [("Origin", "https://evil.example")]),
                (fields + [("csrf", token)], [("Origin", "null")]),
                (fields + [("csrf", token)], [("Origin", "http://127.0.0.1.evil.example")]),
            ] {
                let answer = try await agent.post(grants, form: form, headers: headers)
                #expect(answer.status == 403, "\(form.last ?? ("", "")) \(headers)")
                #expect(answer.errorCode == "csrf_failed")
            }

            // Raw bodies: bad escapes, non-UTF-8 bytes, a huge one, thousands of pairs.
            let port = try Self.port(of: agent.base)
            let cookie = await agent.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            let csrf = "csrf=" + token
            let manyPairs: [UInt8] = Array((0..<3_000).map { "k\($0)=v" }.joined(separator: "&").utf8)
            let ampersands: [UInt8] = Array(repeating: UInt8(ascii: "&"), count: 20_000)
            let huge: [UInt8] = Array(repeating: UInt8(ascii: "x"), count: 70_000)
            let invalidUTF8: [UInt8] = [0xFF, 0xFE, 0x00, 0xC0, 0xAF]
            var bodies: [[UInt8]] = []
            bodies.append(Array("item=%zz&amount=%&reason=%E2%82&\(csrf)&confirmed=1".utf8))
            bodies.append(Array("item=coins&amount=5&reason=".utf8) + invalidUTF8 + Array("&\(csrf)&confirmed=1".utf8))
            bodies.append(Array("\(csrf)&item=coins&amount=5&reason=%00&confirmed=1".utf8))
            bodies.append(Array("\(csrf)&item=coins&amount=5&reason=&confirmed=1&".utf8) + ampersands)
            bodies.append(Array("\(csrf)&".utf8) + manyPairs)
            bodies.append(Array("\(csrf)&reason=".utf8) + huge)
            bodies.append([0x00, 0xFF] + Array("=\(csrf)".utf8))
            // Odd transaction ids an HTTP client would rewrite before sending.
            for path in ["/console/owed/%FF/deliver", "/console/owed/%C0%AF/deliver", "/console/owed/%/deliver"] {
                let body = Array("\(csrf)&playerId=carol".utf8)
                let answer = try await RawHTTP.send(
                    port: port,
                    head: "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n"
                        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.count)\r\n"
                        + "Connection: close\r\n\r\n",
                    body: body)
                #expect(answer.status == 404, "\(path): \(answer.status)")
                #expect(answer.errorCode == "not_found", "\(path)")
            }
            for body in bodies {
                let answer = try await RawHTTP.send(
                    port: port,
                    head: "POST \(grants) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n"
                        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.count)\r\n"
                        + "Connection: close\r\n\r\n",
                    body: body)
                #expect((400..<500).contains(answer.status), "raw body \(body.prefix(40)): \(answer.status)")
                #expect(answer.errorCode != nil, "raw body \(body.prefix(40)): no code")
            }

            // Raw request lines and headers: invalid UTF-8, NUL, a bare CR; answered 4xx or
            // the connection closed, and the server keeps going.
            let close: [UInt8] = Array(" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
            let longHost = String(repeating: "h", count: 9_000)
            var heads: [[UInt8]] = []
            heads.append(Array("GET /console/players/".utf8) + [0xFF, 0xFE] + close)
            heads.append(Array("GET /console/search?q=".utf8) + [0xC0, 0x00] + close)
            heads.append(
                Array("GET /console/ HTTP/1.1\r\nHost: x\r\nCookie: sk_session=".utf8) + [0xFF, 0x80]
                    + Array("\r\nAccept-Language: ".utf8) + [0xE2, 0x82] + Array("\r\nConnection: close\r\n\r\n".utf8))
            heads.append(Array("GET /console/ HTTP/1.1\r\nHost: \(longHost)\r\nConnection: close\r\n\r\n".utf8))
            heads.append(Array("GET /console/\r HTTP/1.1\r\n\r\n".utf8))
            for head in heads {
                let answer = try await RawHTTP.send(port: port, raw: head)
                #expect(answer.status == 0 || answer.status < 500, "raw head: \(answer.status)")
            }

            try await Self.expectNothingChanged(fixture, player: "carol", balance: 5)
            #expect(try await agent.get(page).status == 200, "the server still answers")
        }
    }

    @Test("hostile forms signed out: 403 before anything runs, nothing written")
    func formsSignedOut() async throws {
        try await withConsole(settings: Self.settings) { fixture in
            let browser = await fixture.browser()
            for path in [
                "/console/players/carol/grants", "/console/owed/1/deliver", "/console/owed/reconcile", "/console/staff",
                "/console/staff/x/disable", "/console/staff/x/reset-password", "/console/sign-out",
            ] {
                let answer = try await browser.post(
                    path, form: [("item", "coins"), ("amount", "5"), ("reason", "x"), ("confirmed", "1")])
                Self.expectRefusalHasCode(answer, path)
                #expect(answer.status == 403 || path == "/console/sign-out", "\(path): \(answer)")
            }
            await browser.setCookie("sk_session", String(repeating: "A", count: 43))
            let forged = try await browser.post("/console/players/carol/grants", form: [("csrf", "")])
            #expect(forged.errorCode == "session_required")
            try await Self.expectNothingChanged(fixture, player: "carol")
        }
    }

    @Test("hostile sign-ins: a code for each, on PostgreSQL too", arguments: StoreKind.allCases)
    func signIns(kind: StoreKind) async throws {
        try await withConsole(kind, settings: Self.settings) { fixture in
            let login = try await fixture.addStaff("ann", role: .agent)
            let browser = await fixture.browser()
            for (name, password, code) in [
                ("\u{0}", "x", "invalid_credentials"), ("ann\u{0}", login.password, "invalid_credentials"),
                ("<script>alert(1)</script>", "x", "invalid_credentials"),
                (String(repeating: "n", count: 10_000), "x", "invalid_credentials"),
                ("ann", String(repeating: "p", count: 60_000), "invalid_credentials"),
                ("ann", String(repeating: "p", count: 70_000), "request_too_large"),
                ("", "", "invalid_credentials"), ("ANN", login.password, "invalid_credentials"),
            ] {
                let answer = try await browser.signIn(name: name, password: password)
                #expect(answer.status < 500, "\(name.prefix(20).debugDescription): \(answer)")
                #expect(answer.errorCode == code, "\(name.prefix(20).debugDescription)")
                #expect(!answer.body.contains("<script>alert"))
            }
            let failures = try await fixture.audit("sign_in_failed")
            #expect(failures.contains { $0.actor == "ann\u{FFFD}" }, "the NUL name is audited, printable")
            #expect(await browser.cookies["sk_session"] == nil)
            // One wrong password above (the long one) counts; the account is not locked.
            #expect(try await browser.signIn(login).status == 303)
        }
    }

    @Test("a burst of concurrent sign-ins: each refused with a code, none a 5xx; the process still answers")
    func signInBurst() async throws {
        try await withConsole(settings: Self.settings) { fixture in
            let answers = try await withThrowingTaskGroup(of: ConsoleAnswer.self) { group in
                for index in 0..<24 {
                    group.addTask {
                        let browser = await fixture.browser()
                        return try await browser.signIn(name: "nobody\(index)", password: "wrong-password-\(index)")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for answer in answers {
                #expect(["invalid_credentials", "sign_in_busy"].contains(answer.errorCode ?? ""), "\(answer)")
                #expect(answer.status < 500)
            }
            #expect(try await fixture.browser().get("/console/sign-in").status == 200)
        }
    }

    @Test(
        "hostile input to the admin's pages and actions: codes, no 5xx, the audit detail stays clean",
        arguments: StoreKind.allCases)
    func adminPages(kind: StoreKind) async throws {
        try await withConsole(kind, settings: Self.settings) { fixture in
            try await fixture.addStaff("ann", role: .agent)
            let admin = try await fixture.signedIn("ada", role: .admin)
            for path in [
                "/console/audit?actor=%00", "/console/audit?actor=a%00b&before=99999999999999999999",
                "/console/audit?before=-9223372036854775808",
                "/console/audit?actor=" + String(repeating: "n", count: 3_000),
                "/console/audit?actor=%3Cscript%3Ealert(1)%3C%2Fscript%3E", "/console/staff?x=%00",
            ] {
                let answer = try await admin.get(path)
                #expect(answer.status == 200, "\(path): \(answer)")
                #expect(!answer.body.contains("<script>alert"), "\(path)")
            }
            for (path, form, code) in [
                ("/console/staff", [("name", "bad\u{0}name"), ("role", "agent")], "invalid_name"),
                ("/console/staff", [("name", "<script>"), ("role", "agent")], "invalid_name"),
                ("/console/staff", [("name", "eve"), ("role", "root")], "invalid_role"),
                ("/console/staff", [("name", "eve"), ("role", "admin\u{0}")], "invalid_role"),
                ("/console/staff/%00/disable", [], "not_found"),
                ("/console/staff/nobody/reset-password", [], "not_found"),
                ("/console/staff/" + String(repeating: "n", count: 100) + "/disable", [], "not_found"),
            ] {
                let answer = try await admin.submit(path, form: form)
                #expect(answer.errorCode == code, "\(path) \(form): \(answer)")
                #expect(answer.status < 500)
            }
            #expect(try await fixture.store.staff(name: "eve") == nil)
            // An unknown second-factor choice keeps the factor, and the audit log says "keep".
            let reset = try await admin.submit(
                "/console/staff/ann/reset-password", form: [("totp", "<b>\u{0}" + String(repeating: "x", count: 5_000))]
            )
            #expect(reset.status == 200, "\(reset)")
            let record = try #require(try await fixture.audit("staff_reset_password", actor: "ada").first)
            #expect(record.detail["totp"] == "keep")
            // The percent-encoded name of the staff page's own links works too.
            let disabled = try await admin.submit("/console/staff/%61nn/disable", form: [])
            #expect(disabled.status == 303, "\(disabled)")
            #expect(try await fixture.store.staff(name: "ann")?.disabledAt != nil)
        }
    }

    @Test("a player with more orders than a page lists: the newest 200, newest first")
    func manyOrders() async throws {
        try await withConsole(settings: Self.settings) { fixture in
            let store = try await fixture.store
            let start = Date()
            for index in 0..<(SupportPages.recordLimit + 30) {
                _ = try await store.createOrder(
                    Order(
                        orderId: "o-\(1_000 + index)", playerId: "dave", productId: "coins100",
                        appAccountToken: UUID().uuidString, createdAt: start.addingTimeInterval(Double(index)),
                        expiresAt: start.addingTimeInterval(3_600)))
            }
            let viewer = try await fixture.signedIn("vic", role: .viewer)
            let page = try await viewer.get("/console/players/dave")
            #expect(page.status == 200)
            #expect(page.count("<tr data-order-id=") == SupportPages.recordLimit)
            let first = try #require(page.body.range(of: #"<tr data-order-id=""#)).upperBound
            #expect(page.body[first...].hasPrefix("o-\(1_000 + SupportPages.recordLimit + 29)\""), "newest first")
            #expect(!page.body.contains(#"data-order-id="o-1029""#), "the oldest are left out")
        }
    }

    // MARK: Units

    @Test("password checks are bounded: beyond the limit a check is refused, a slot given back is free again")
    func passwordCheckSlots() async {
        let slots = PasswordCheckSlots(limit: 2)
        #expect(await slots.enter())
        #expect(await slots.enter())
        #expect(await !slots.enter())
        await slots.leave()
        #expect(await slots.enter())
        #expect(PasswordCheckSlots(limit: 0).limit == 1)
    }

    @Test("control characters are found (C0, DEL, C1) and replaced for the audit log")
    func controlCharacters() {
        #expect(ConsoleText.hasControlCharacters("a\u{0}b"))
        #expect(ConsoleText.hasControlCharacters("\u{7F}"))
        #expect(ConsoleText.hasControlCharacters("\u{85}"))
        #expect(!ConsoleText.hasControlCharacters("玩家-1 é"))
        #expect(!ConsoleText.hasControlCharacters("a\nb", allowing: ["\n"]))
        #expect(ConsoleText.printable("a\u{0}b\u{1B}") == "a\u{FFFD}b\u{FFFD}")
        #expect(ConsoleText.printable("plain") == "plain")
    }

    // MARK: Helpers

    /// A refusal is a 4xx HTML page with `#error[data-code]`; a redirect stays in the console.
    static func expectRefusalHasCode(
        _ answer: ConsoleAnswer, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(answer.status < 500, "\(what): \(answer)", sourceLocation: sourceLocation)
        if answer.status >= 400 {
            #expect(
                answer.errorCode != nil, "\(what): a refusal without a code: \(answer)", sourceLocation: sourceLocation)
        }
        if answer.status == 303 {
            let location = answer.location ?? ""
            #expect(
                location.hasPrefix("/console/") && !location.contains("//"), "\(what) → \(location)",
                sourceLocation: sourceLocation)
        }
    }

    /// The player's wallet is as it was and the audit log has no change in it.
    static func expectNothingChanged(_ fixture: ConsoleFixture, player: String, balance: Int64? = nil) async throws {
        let wallet = try await fixture.store.wallet(playerId: player)
        #expect(wallet["coins"] == balance, "\(wallet)")
        let records = try await fixture.store.auditRecords(beforeId: nil, limit: 1_000, actor: nil)
        #expect(records.filter { changeActions.contains($0.action) }.map(\.action) == [])
        #expect(records.filter { $0.action == "deliver_owed" && $0.detail["outcome"] == "delivered" }.isEmpty)
    }

    /// The port of a base URL such as `http://127.0.0.1:51234`.
    static func port(of base: String) throws -> Int {
        guard let port = URLComponents(string: base)?.port else { throw ConsoleTestError("no port in \(base)") }
        return port
    }
}

/// Raw HTTP/1.1 over a loopback socket, for bytes an HTTP client will not send.
enum RawHTTP {
    /// What came back: the status (0 when the server closed without answering) and the body.
    struct Answer: Sendable {
        var status: Int
        var body: String
        /// The `Location` header.
        var location: String?
        var errorCode: String? { ConsoleAnswer.attribute("data-code", ofElementWithId: "error", in: body) }
    }

    /// Sends `head` and `body`, reads until the server closes (or 60 s pass).
    static func send(port: Int, head: String, body: [UInt8]) async throws -> Answer {
        try await send(port: port, raw: Array(head.utf8) + body)
    }

    /// Sends `raw`, reads until the server closes.
    ///
    /// - Throws: when 60 s pass without a byte: a slow answer on a loaded machine is not
    ///   a server that closed without answering (status 0).
    static func send(port: Int, raw: [UInt8]) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try exchange(port: port, raw: raw) })
            }
        }
    }

    private static func exchange(port: Int, raw: [UInt8]) throws -> Answer {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ConsoleTestError("socket failed") }
        defer { close(descriptor) }
        #if canImport(Darwin)
            var noSignal: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw ConsoleTestError("connect failed") }
        var offset = 0
        while offset < raw.count {
            // MSG_NOSIGNAL: a server that closes early must not kill the tests with SIGPIPE.
            #if canImport(Glibc)
                let sent = raw[offset...].withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
            #else
                let sent = raw[offset...].withUnsafeBytes { Darwin.send(descriptor, $0.baseAddress, $0.count, 0) }
            #endif
            if sent <= 0 { break }  // the server may close on a bad request before reading it all
            offset += sent
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw ConsoleTestError("no answer within 60 s (\(received.count) bytes so far)")
            }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        let statusLine = text.prefix { $0 != "\r" && $0 != "\n" }.split(separator: " ")
        let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
        let split = text.range(of: "\r\n\r\n")
        let head = split.map { String(text[..<$0.lowerBound]) } ?? text
        let body = split.map { String(text[$0.upperBound...]) } ?? ""
        let location = head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("location:") }
            .map { String($0.dropFirst("location:".count)).trimmingCharacters(in: .whitespaces) }
        return Answer(status: status, body: body, location: location)
    }
}

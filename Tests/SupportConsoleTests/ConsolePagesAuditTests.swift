import Foundation
import Ledger
import Testing

@testable import SupportConsole

/// The audit page: actions named for people, targets linked to their pages, and grants
/// made through the admin API merged in by time with the actor they named.
struct ConsolePagesAuditTests {
    @Test func actionsAreNamedAndTargetsLinked() async throws {
        try await ConsoleFixture.withPages { fixture in
            _ = try await fixture.deliveredPurchase(to: "alice")
            let admin = try await fixture.signedIn("boss", role: .admin)
            #expect(try await admin.get("/console/players/alice").status == 200)
            let audit = try await admin.get("/console/audit")
            #expect(audit.status == 200, "\(audit)")
            #expect(audit.body.contains(#"<td class="audit-action">Viewed player</td>"#))
            #expect(audit.body.contains(#"<a href="/console/players/alice">alice</a>"#))
            #expect(audit.body.contains(#"<td class="audit-action">Signed in</td>"#))
            await admin.setCookie("sk_lang", "zh-Hans")
            let chinese = try await admin.get("/console/audit")
            #expect(chinese.body.contains(#"<td class="audit-action">查看玩家</td>"#), "\(chinese.body.prefix(300))")
        }
    }

    @Test func adminAPIGrantsAreListedWithTheirActorOnThePageOfTheirTime() async throws {
        try await ConsoleFixture.withPages { fixture in
            let api = await fixture.browser()
            let granted = try await api.postJSON(
                "/v1/admin/grants",
                json:
                    #"{"playerId":"mallory","grants":{"coins":-150},"reason":"spent in the shop","actor":"game-server"}"#,
                headers: [("Authorization", "Bearer test-admin-key-0001")])
            #expect(granted.status == 201, "\(granted)")
            let grantedAt = Date()
            // 150 newer records: the grant belongs on the second page, older than the first's.
            let store = try await fixture.store
            for index in 0..<150 {
                try await store.appendAudit(
                    AuditRecord(
                        actor: "bot", action: "search", target: "q\(index)", address: "local",
                        createdAt: grantedAt.addingTimeInterval(Double(index + 1))))
            }
            let admin = try await fixture.signedIn("boss", role: .admin)
            let first = try await admin.get("/console/audit")
            #expect(!first.body.contains(#"data-action="admin_api_grant""#), "the grant is older than this page")
            let next = try #require(ConsoleAnswer.attribute("href", ofElementWithId: "audit-next", in: first.body))
            let second = try await admin.get(next.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(second.count(#"data-action="admin_api_grant""#) == 1, "\(second.body)")
            #expect(second.body.contains(#"<a href="/console/audit?actor=game-server">game-server</a>"#))
            #expect(second.body.contains("Granted through admin API"))
            #expect(second.body.contains(#"<a href="/console/players/mallory">mallory</a>"#))
            #expect(second.body.contains("Reason: spent in the shop"))
            let byActor = try await admin.get("/console/audit?actor=game-server")
            #expect(byActor.count(#"data-action="admin_api_grant""#) == 1)
            #expect(try await admin.get("/console/audit?actor=bot").count(#"data-action="admin_api_grant""#) == 0)
        }
    }
}

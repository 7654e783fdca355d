import Foundation
import Ledger
import Testing

@testable import SupportConsole

/// Compensation (补单): checked fields, the role's limit, a confirmation step, then the
/// ledger's manual grant, on the timeline at once and in the audit log.
@Suite(.serialized)
struct ConsolePagesGrantTests {
    @Test func grantsAreCheckedLimitedConfirmedAppliedAndAudited() async throws {
        try await ConsoleFixture.withPages {
            $0.console.agentGrantLimit = 100
        } _: { fixture in
            _ = try await fixture.order("carol")
            let agent = try await fixture.signedIn("ann", role: .agent)
            let page = "/console/players/carol"
            let form = try await agent.get(page)
            #expect(form.body.contains(#"<form id="grant" method="post" action="/console/players/carol/grants""#))
            let grants = "/console/players/carol/grants"

            let over = try await agent.submit(
                grants, form: [("item", "coins"), ("amount", "-500"), ("reason", "typo")], from: page)
            #expect(over.status == 403)
            #expect(over.errorCode == "over_limit")
            let refusal = try #require(try await fixture.audit("grant_refused", actor: "ann").first)
            #expect(refusal.detail["amount"] == "-500")
            #expect(refusal.detail["refusal"] == "over_limit")

            for (fields, code) in [
                ([("item", "coins"), ("amount", "50"), ("reason", " ")], "reason_required"),
                ([("item", "coins"), ("amount", "0"), ("reason", "x")], "invalid_amount"),
                ([("item", "coins"), ("amount", "ten"), ("reason", "x")], "invalid_amount"),
                ([("item", "diamonds"), ("amount", "5"), ("reason", "x")], "invalid_item"),
                (
                    [("item", "coins"), ("amount", "5"), ("reason", String(repeating: "x", count: 1_025))],
                    "reason_too_long"
                ),
            ] {
                let answer = try await agent.submit(grants, form: fields, from: page)
                #expect(answer.errorCode == code, "\(fields)")
            }

            let fields = [("item", "coins"), ("amount", "50"), ("reason", "lost order <b>#42</b>")]
            let confirm = try await agent.submit(grants, form: fields, from: page)
            #expect(confirm.status == 200, "\(confirm)")
            #expect(confirm.body.contains(#"<form id="grant-confirm""#))
            #expect(confirm.body.contains(#"name="confirmed" value="1""#))
            #expect(confirm.body.contains("lost order &lt;b&gt;#42&lt;/b&gt;"))
            #expect(try await fixture.store.wallet(playerId: "carol").isEmpty, "nothing granted before confirming")

            let granted = try await agent.submit(grants, form: fields + [("confirmed", "1")], from: page)
            #expect(granted.status == 303, "\(granted)")
            #expect(granted.location == "/console/players/carol?notice=granted")
            #expect(try await fixture.store.wallet(playerId: "carol") == ["coins": 50])
            let after = try await agent.get(try #require(granted.location))
            #expect(after.noticeCode == "granted")
            #expect(after.body.contains(#"<li data-event-type="manual_grant""#))
            let audit = try #require(try await fixture.audit("manual_grant", actor: "ann").first)
            #expect(audit.target == "carol")
            #expect(audit.detail == ["item": "coins", "amount": "50", "reason": "lost order <b>#42</b>"])
            let event = try #require(
                try await fixture.store.timelineNewestFirst(
                    playerId: "carol", beforeId: nil, limit: 5, types: [.manualGrant]
                ).first)
            #expect(event.detail["actor"] == "ann")

            // Taking back within the limit is a grant too.
            let takeBack = [("item", "coins"), ("amount", "-20"), ("reason", "double grant"), ("confirmed", "1")]
            #expect(try await agent.submit(grants, form: takeBack, from: page).status == 303)
            #expect(try await fixture.store.wallet(playerId: "carol") == ["coins": 30])
        }
    }

    @Test func aViewerCannotGrant() async throws {
        try await ConsoleFixture.withPages { fixture in
            _ = try await fixture.order("carol")
            let viewer = try await fixture.signedIn("vera", role: .viewer)
            let answer = try await viewer.submit(
                "/console/players/carol/grants",
                form: [("item", "coins"), ("amount", "1"), ("reason", "x"), ("confirmed", "1")],
                from: "/console/players/carol")
            #expect(answer.status == 403)
            #expect(answer.errorCode == "forbidden")
            #expect(try await fixture.store.wallet(playerId: "carol").isEmpty)
            #expect(try await !fixture.audit("action_forbidden", actor: "vera").isEmpty)
            let unknown = try await fixture.signedIn("ann", role: .agent).submit(
                "/console/players/nobody/grants", form: [("item", "coins"), ("amount", "1"), ("reason", "x")])
            #expect(unknown.status == 404)
        }
    }
}

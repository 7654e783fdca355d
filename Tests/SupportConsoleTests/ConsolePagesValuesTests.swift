import AppStoreModel
import Foundation
import Ledger
import Testing

@testable import SupportConsole

/// How the pages show the ledger's records and Apple's fields: for people, never raw JSON,
/// epoch milliseconds, milliunit shares, bare codes or a label followed by its own code.
@Suite(.serialized)
struct ConsolePagesValuesTests {
    @Test func aPartialRefundReadsInWordsMoneyAndPercent() async throws {
        try await ConsoleFixture.withPages { fixture in
            let (_, paid) = try await fixture.deliveredPurchase(to: "erin")
            try await fixture.emulator.refund(
                transactionId: paid.transactionId, percentage: 30_000, reason: .refundedDueToIssue)
            try await fixture.eventually("the refund") {
                try await fixture.store.purchase(store: .appStore, transactionId: paid.transactionId)?.refundedShare
                    == 30_000
            }
            let viewer = try await fixture.signedIn("vera", role: .viewer)
            let page = try await viewer.get("/console/transactions/" + paid.transactionId)
            #expect(page.status == 200)
            // The refund event: the share in percent, the items taken back, Apple's reason in words.
            #expect(page.body.contains(#"<dt data-key="refundedShare">Refunded now</dt><dd class="wrap">30%</dd>"#))
            #expect(page.body.contains(#"<dt data-key="grants">Items</dt><dd class="wrap">−30 coins</dd>"#))
            #expect(page.body.contains("an issue with the app, actual or perceived"))
            // The purchase: the money refunded at the catalog's list price, with the share.
            #expect(page.body.contains("\u{2212}0.30 USD (30%)"))
            // Apple's signed fields named for people, their codes explained.
            #expect(page.body.contains(#"data-field="revocationReason">1 — an issue with the app"#))
            #expect(page.body.contains(#"data-field="price">0.99 USD"#))
            for raw in [#"{"coins""#, "revocation reason 1", "30000", "Refunded refunded", "<code>refunded</code>"] {
                #expect(!page.body.contains(raw), "the page shows \(raw)")
            }
            #expect(page.body.range(of: #"\b1[0-9]{12}\b"#, options: .regularExpression) == nil)

            await viewer.setHeader("Accept-Language", "zh-CN")
            let chinese = try await viewer.get("/console/transactions/" + paid.transactionId)
            #expect(chinese.body.contains(#"<dt data-key="refundedShare">当前退款比例</dt>"#))
            #expect(chinese.body.contains("\u{2212}0.30 USD（30%）"))
            #expect(!chinese.body.contains("<dt>revocationReason</dt>"))
        }
    }

    @Test func everyKindOfDetailReadsForPeopleAndOddValuesStayAsStored() async throws {
        try await ConsoleFixture.withPages { fixture in
            let (_, paid) = try await fixture.deliveredPurchase(to: "finn")
            try await fixture.store.appendEvent(
                HistoryEvent(
                    type: HistoryEventType(rawValue: "consumption_information_failed"),
                    transactionId: paid.transactionId,
                    detail: [
                        "signedDate": "1795494817066", "until": "soon", "consumptionPercentage": "100001",
                        "spent": #"{"gems":5,"coins":-30}"#, "negativeBalances": #"{"coins":"x"}"#,
                        "retryable": "true", "reason": "revocation reason 7", "source": "reconciler",
                        "from": "gus", "notificationUUID": "4f1c", "price": "990", "currency": "USD",
                        "via": "admin_api",
                    ],
                    createdAt: Date()))
            let viewer = try await fixture.signedIn("vera", role: .viewer)
            let body = try await viewer.get("/console/transactions/" + paid.transactionId).body
            func field(_ key: String, _ label: String, _ value: String) {
                #expect(body.contains(#"<dt data-key="\#(key)">\#(label)</dt><dd class="wrap">\#(value)</dd>"#))
            }
            field("signedDate", "Signed by Apple", "2026-11-24 04:33:37 UTC")
            field("until", "Until", "soon")
            field("consumptionPercentage", "Share used", "100001")
            field("spent", "Spent", "−30 coins, +5 gems")
            field("negativeBalances", "Negative balances", #"{&quot;coins&quot;:&quot;x&quot;}"#)
            field("retryable", "Will be retried", "yes")
            field("reason", "Reason", "7")
            field("source", "Source", "Reconciler")
            field("from", "From player", #"<a href="/console/players/gus">gus</a>"#)
            field("notificationUUID", "Notification", "<code>4f1c</code>")
            field("price", "Price charged", "0.99 USD")
            field("via", "Through", "the admin API")
            #expect(body.contains("Sending consumption information to Apple failed"))
        }
    }
}

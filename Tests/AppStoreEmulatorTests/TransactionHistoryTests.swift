import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import Foundation
import HummingbirdTesting
import Testing

/// Get Transaction History (v2 and the deprecated v1) over HTTP: Apple's query parameters,
/// revisions bound to their query, and Apple's 400 codes for every refused parameter.
struct TransactionHistoryTests {
    /// Every page of `/{version}/history/{anchor}?{query}`, following revisions: the
    /// transactions as signed, and the last page's revision.
    private func history(
        _ fixture: EmulatorFixture, _ client: some TestClientProtocol, _ anchor: String, _ query: String = "",
        version: String = "v2"
    ) async throws -> (transactions: [JWSTransactionDecodedPayload], revision: String) {
        let verifier = JWSVerifier(roots: fixture.emulator.trustRoots)
        var found: [JWSTransactionDecodedPayload] = []
        var revision: String?
        for _ in 0..<20 {
            let parameters = [query, revision.map { "revision=\($0)" } ?? ""].filter { !$0.isEmpty }
            let response = try await fixture.call(
                client, .get, "\(version)/history/\(anchor)?" + parameters.joined(separator: "&"))
            #expect(response.status == .ok)
            let page = try JSON.decode(HistoryResponse.self, response.body)
            #expect((page.signedTransactions?.count ?? 0) <= 20)
            #expect(page.environment == .sandbox)
            for jws in page.signedTransactions ?? [] { found.append(try await verifier.verifyTransaction(jws)) }
            let next: String = try #require(page.revision, "every page carries a revision")
            revision = next
            if page.hasMore != true { return (found, next) }
        }
        Issue.record("history never ended")
        return (found, revision ?? "")
    }

    @Test func everyDocumentedFilterNarrowsTheHistory() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        var bought: [String: String] = [:]
        for product in ["coins100", "potion", "levelpack1", "vip.monthly", "seasonpass", "coins500"] {
            bought[product] = try await fixture.buy(product)
        }
        let refunded = try #require(bought["coins500"])
        try await fixture.emulator.refund(transactionId: refunded)
        _ = try await fixture.buy("levelpack1", on: "someone-else")
        let anchor = try #require(bought["coins100"])

        try await fixture.live { _, client in
            func products(_ query: String) async throws -> [String] {
                try await history(fixture, client, anchor, query).transactions.compactMap(\.productId)
            }
            let all = try await history(fixture, client, anchor).transactions
            #expect(
                all.compactMap(\.productId) == [
                    "coins100", "potion", "levelpack1", "vip.monthly", "seasonpass", "coins500",
                ])
            #expect(try await products("productId=potion") == ["potion"])
            #expect(try await products("productId=potion&productId=levelpack1") == ["potion", "levelpack1"])
            #expect(
                try await products("productType=NON_CONSUMABLE&productType=AUTO_RENEWABLE") == [
                    "levelpack1", "vip.monthly",
                ])
            #expect(try await products("productType=NON_RENEWABLE") == ["seasonpass"])
            #expect(try await products("productType=CONSUMABLE&revoked=false") == ["coins100", "potion"])
            let group = try #require(all.first { $0.productId == "vip.monthly" }?.subscriptionGroupIdentifier)
            #expect(try await products("subscriptionGroupIdentifier=\(group)") == ["vip.monthly"])
            #expect(try await products("inAppOwnershipType=FAMILY_SHARED").isEmpty)
            #expect(try await products("inAppOwnershipType=PURCHASED").count == 6)
            // Apple's Python library sends booleans as Python prints them.
            #expect(try await products("revoked=True") == ["coins500"])
            #expect(try await products("revoked=false").count == 5)
            #expect(try await products("excludeRevoked=true").count == 5)
            #expect(
                try await products("sort=DESCENDING") == [
                    "coins500", "seasonpass", "vip.monthly", "levelpack1", "potion", "coins100",
                ])

            let first = try #require(all.first?.purchaseDate)
            let last = try #require(all.last?.purchaseDate)
            #expect(try await products("startDate=\(first)").count == 6, "startDate is included")
            #expect(try await products("startDate=\(last + 1)").isEmpty)
            #expect(try await products("endDate=\(first)").isEmpty, "endDate is excluded")
            #expect(try await products("startDate=\(first)&endDate=\(last + 1)").count == 6)
            #expect(try await products("endDate=\(last + 86_400_000)").count == 6, "a future endDate is valid")
        }
    }

    @Test func versionOneLeavesOutFinishedConsumablesThatStand() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let finished = try await fixture.buy("coins100")
        let unfinished = try await fixture.buy("potion")
        let finishedThenRefunded = try await fixture.buy("coins500")
        let nonConsumable = try await fixture.buy("levelpack1")
        for id in [finished, finishedThenRefunded, nonConsumable] {
            try await fixture.emulator.finishTransaction(deviceId: "p", transactionId: id)
        }
        Self.waitForTheNextMillisecond()
        try await fixture.emulator.refund(transactionId: finishedThenRefunded)

        try await fixture.live { _, client in
            // The refund modified its transaction last: Apple sorts by modified date.
            let v2 = try await history(fixture, client, unfinished).transactions.compactMap(\.transactionId)
            #expect(v2 == [finished, unfinished, nonConsumable, finishedThenRefunded])
            let v1 = try await history(fixture, client, unfinished, version: "v1").transactions.compactMap(
                \.transactionId)
            #expect(v1 == [unfinished, nonConsumable, finishedThenRefunded])
            // The anchor may itself be left out of v1.
            let fromFinished = try await history(fixture, client, finished, version: "v1")
            #expect(fromFinished.transactions.compactMap(\.transactionId) == v1)
        }
    }

    @Test("a refund or a new app account token moves a transaction to the end: Apple sorts by modified date")
    func historyIsInModifiedOrder() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let first = try await fixture.buy("coins100")
        let second = try await fixture.buy("levelpack1")
        let third = try await fixture.buy("potion")
        Self.waitForTheNextMillisecond()
        try await fixture.emulator.refund(transactionId: first)
        Self.waitForTheNextMillisecond()
        try await fixture.emulator.setAppAccountToken(second, UUID().uuidString, environment: .sandbox)

        try await fixture.live { _, client in
            let ascending = try await history(fixture, client, third).transactions.compactMap(\.transactionId)
            #expect(ascending == [third, first, second])
            let descending = try await history(fixture, client, third, "sort=DESCENDING").transactions
            #expect(descending.compactMap(\.transactionId) == [second, first, third])
        }
    }

    /// Returns once the wall clock has moved on by a millisecond, so what happens next is
    /// dated after everything before (the emulator dates in milliseconds).
    private static func waitForTheNextMillisecond() {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        while Int64(Date().timeIntervalSince1970 * 1000) <= now {}
    }

    @Test func revisionsPageTheQueryTheyWereIssuedFor() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        var purchases: [String] = []
        for index in 0..<45 { purchases.append(try await fixture.buy(index % 3 == 0 ? "coins100" : "potion")) }
        let ids = purchases
        let stranger = try await fixture.buy("potion", on: "stranger")
        let potions = ids.enumerated().filter { $0.offset % 3 != 0 }.map(\.element)

        try await fixture.live { _, client in
            let ascending = try await history(fixture, client, ids[0], "productId=potion")
            #expect(ascending.transactions.compactMap(\.transactionId) == potions)
            let descending = try await history(fixture, client, ids[0], "productId=potion&sort=DESCENDING")
            #expect(descending.transactions.compactMap(\.transactionId) == potions.reversed())

            // The first page's revision, sent with another query or for another customer, is
            // not that query's.
            let firstPage = try JSON.decode(
                HistoryResponse.self,
                try await fixture.call(client, .get, "v2/history/\(ids[0])?productId=potion").body)
            #expect(firstPage.hasMore == true)
            let revision = try #require(firstPage.revision)
            for (anchor, query) in [
                (ids[0], "productId=coins100"), (ids[0], "productId=potion&sort=DESCENDING"),
                (stranger, "productId=potion"),
            ] {
                try expectAPIError(
                    try await fixture.call(client, .get, "v2/history/\(anchor)?\(query)&revision=\(revision)"),
                    .badRequest, .invalidRequestRevision)
            }
            try expectAPIError(
                try await fixture.call(client, .get, "v1/history/\(ids[0])?productId=potion&revision=\(revision)"),
                .badRequest, .invalidRequestRevision)
            // Any transaction of the customer's anchors the same history and takes its revisions.
            let second = try await fixture.call(
                client, .get, "v2/history/\(ids[7])?productId=potion&revision=\(revision)")
            #expect(second.status == .ok)

            // The last page's revision, kept, gives what the customer bought since.
            let newer = try await fixture.buy("potion")
            _ = try await fixture.buy("coins100")
            let later = try await fixture.call(
                client, .get, "v2/history/\(ids[0])?productId=potion&revision=\(ascending.revision)")
            let page = try JSON.decode(HistoryResponse.self, later.body)
            let verifier = JWSVerifier(roots: fixture.emulator.trustRoots)
            let since = try await (page.signedTransactions ?? []).asyncMap { try await verifier.verifyTransaction($0) }
            #expect(since.compactMap(\.transactionId) == [newer])
            #expect(page.hasMore == false)
        }
    }

    @Test func refusedParametersGetApplesCodes() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let id = try await fixture.buy("coins100")
        let refused: [(String, APIErrorCode)] = [
            ("startDate=yesterday", .invalidStartDate),
            ("startDate=-1", .invalidStartDate),
            ("endDate=soon", .invalidEndDate),
            ("startDate=2000&endDate=2000", .invalidEndDate),
            ("startDate=3000&endDate=2000", .invalidEndDate),
            ("productId=", .invalidProductId),
            ("productId=coins%20100", .invalidProductId),
            ("productType=GAME", .invalidProductType),
            ("productType=CONSUMABLE&productType=consumable", .invalidProductType),
            ("sort=NEWEST", .invalidSort),
            ("subscriptionGroupIdentifier=", .invalidSubscriptionGroupIdentifier),
            ("inAppOwnershipType=BORROWED", .invalidInAppOwnershipType),
            ("revoked=yes", .invalidRevoked),
            ("revoked", .invalidRevoked),
            ("excludeRevoked=1", .invalidExcludeRevoked),
            ("revision=not-a-revision", .invalidRequestRevision),
        ]
        try await fixture.live { _, client in
            for version in ["v1", "v2"] {
                for (query, code) in refused {
                    try expectAPIError(
                        try await fixture.call(client, .get, "\(version)/history/\(id)?\(query)"), .badRequest, code)
                }
                try expectAPIError(
                    try await fixture.call(client, .get, "\(version)/history/2999999999999999"), .notFound,
                    .transactionIdNotFound)
                try expectAPIError(
                    try await fixture.call(client, .get, "\(version)/history/abc"), .badRequest, .invalidTransactionId)
                try expectAPIError(
                    try await fixture.call(client, .get, "\(version)/history/\(id)", environment: "production"),
                    .notFound, .transactionIdNotFound)
            }
        }
    }

    @Test func theClientModelSpellsTheQueryAsApple() {
        let request = TransactionHistoryRequest(
            startDate: 1, endDate: 2, productIds: ["a", "b"], productTypes: [.consumable, .autoRenewable],
            sort: .descending, subscriptionGroupIdentifiers: ["g"], inAppOwnershipType: .purchased, revoked: false)
        #expect(
            request.queryItems.map { "\($0.name)=\($0.value)" } == [
                "startDate=1", "endDate=2", "productId=a", "productId=b", "productType=CONSUMABLE",
                "productType=AUTO_RENEWABLE", "sort=DESCENDING", "subscriptionGroupIdentifier=g",
                "inAppOwnershipType=PURCHASED", "revoked=false",
            ])
        #expect(TransactionHistoryRequest().queryItems.isEmpty)
        #expect(TransactionHistoryRequest.ProductType(ProductType.nonRenewing) == .nonRenewable)
    }
}

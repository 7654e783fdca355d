import AppStoreAPI
import AppStoreEmulator
import AppStoreModel
import AppStoreSigning
import AppStoreVerification
import Foundation
import HummingbirdTesting
import Testing

/// The App Store Server API over HTTP, with AppStoreAPI's client configured only by URL.
struct ServerAPITests {
    @Test func transactionInfoHistoryAndLookUpWork() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        var bought: [String] = []
        for index in 0..<45 {
            let product = index % 3 == 0 ? "coins100" : "potion"
            bought.append(
                try #require(
                    try await fixture.emulator.purchase(deviceId: "whale", PurchaseRequest(productId: product))
                        .transactionId))
        }
        let ids = bought
        _ = try await fixture.emulator.purchase(deviceId: "other", PurchaseRequest(productId: "coins100"))
        let verifier = JWSVerifier(roots: fixture.emulator.trustRoots)

        try await fixture.live { baseURL, _ in
            let api = fixture.serverAPI(baseURL)
            let info = try await verifier.verifyTransaction(try await api.getTransactionInfo(transactionId: ids[7]))
            #expect(info.transactionId == ids[7])

            var seen: [String] = []
            var revision: String?
            var pages = 0
            repeat {
                let page = try await api.getTransactionHistory(transactionId: ids[0], revision: revision)
                for jws in page.signedTransactions ?? [] {
                    seen.append(try #require(try await verifier.verifyTransaction(jws).transactionId))
                }
                revision = page.revision
                pages += 1
                if page.hasMore != true { break }
            } while pages < 10
            #expect(seen == ids, "history returns every transaction of the customer once, in order")
            #expect(pages == 3)
            for madeUp in ["999", "x"] {
                do throws(AppStoreServerAPIError) {
                    _ = try await api.getTransactionHistory(transactionId: ids[0], revision: madeUp)
                    Issue.record("a revision the emulator did not issue was accepted: \(madeUp)")
                } catch {
                    #expect(error.httpStatus == 400)
                    #expect(error.errorCode == .invalidRequestRevision, "Apple answers 4000005")
                }
            }

            let ledger = await fixture.emulator.ledger()
            let orderId = try #require(ledger.first { $0.transactionId == ids[3] }?.orderId)
            let lookup = try await api.lookUpOrderId(orderId)
            #expect(lookup.status == .valid)
            #expect(
                try await verifier.verifyTransaction(try #require(lookup.signedTransactions?.first)).transactionId
                    == ids[3])
            for unknown in ["MKNOPE", "MZZZZZZZZZ", "not-an-order-id"] {
                let answer = try await api.lookUpOrderId(unknown)
                #expect(answer.status == .invalid)
                #expect(answer.signedTransactions == nil, "Apple's status 1 carries no signedTransactions")
            }

            do {
                _ = try await api.getTransactionInfo(transactionId: "999")
                Issue.record("unknown transaction answered")
            } catch let error as AppStoreServerAPIError {
                #expect(error.httpStatus == 404)
                #expect(error.errorCode == .transactionIdNotFound)
            }
            // The production API does not see sandbox transactions.
            await #expect(throws: AppStoreServerAPIError.self) {
                _ = try await fixture.serverAPI(baseURL, "production").getTransactionInfo(transactionId: ids[0])
            }
        }
    }

    @Test func tokensAreCheckedAndBadOnesGet401() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let id = try #require(
            try await fixture.emulator.purchase(deviceId: "p", PurchaseRequest(productId: "coins100")).transactionId)
        let key = fixture.emulator.identity.apiKey
        let strangerKey = AppStoreServerAPIKey.generate(
            issuerId: key.issuerId, keyId: key.keyId, bundleId: key.bundleId)
        let now = Date()
        let tokens: [String: String] = [
            "other key": try strangerKey.makeToken(),
            "wrong audience": try key.signToken(
                claims: AppStoreServerAPIClaims(
                    issuerId: key.issuerId, issuedAt: Int64(now.timeIntervalSince1970),
                    expiresAt: Int64(now.timeIntervalSince1970) + 600, audience: "someone-else", bundleId: key.bundleId)
            ),
            "wrong bundle": try key.signToken(
                claims: AppStoreServerAPIClaims(
                    issuerId: key.issuerId, bundleId: "com.other", issuedAt: now, lifetime: 600)
            ),
            "expired": try key.makeToken(issuedAt: now.addingTimeInterval(-3000), lifetime: 1200),
            "garbage": "not.a.token",
        ]
        try await fixture.live { baseURL, client in
            #expect(try await fixture.serverAPI(baseURL).getTransactionInfo(transactionId: id).isEmpty == false)
            for (name, token) in tokens {
                let response = try await client.execute(
                    uri: "/sandbox/inApps/v1/transactions/\(id)",
                    method: .get,
                    headers: [.authorization: "Bearer \(token)"]
                )
                #expect(response.status == .unauthorized, "\(name) token was not refused")
            }
            let none = try await client.execute(uri: "/sandbox/inApps/v1/transactions/\(id)", method: .get)
            #expect(none.status == .unauthorized)
            // Apple's 401 is plain text with a request id, no error code.
            #expect(none.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = String(buffer: none.body)
            #expect(text.hasPrefix("Unauthenticated\n\nRequest ID: "), "\(text)")
            // So is an unknown operation's, before anything else is looked at.
            let unknownUnauthenticated = try await client.execute(uri: "/sandbox/inApps/v1/nothing", method: .get)
            #expect(unknownUnauthenticated.status == .notFound)
            let unknown = try await fixture.call(client, .get, "v9/transactions/\(id)")
            try expectAPIError(unknown, .notFound, .generalBadRequest)
        }
    }

    @Test func notificationHistoryHoldsUndeliveredNotificationsAndPages() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let start = Date().addingTimeInterval(-5)
        var ids: [String] = []
        for _ in 0..<25 {
            ids.append(
                try #require(
                    try await fixture.emulator.purchase(deviceId: "p", PurchaseRequest(productId: "coins100"))
                        .transactionId))
        }
        try await fixture.emulator.refund(transactionId: ids[0])
        let refundedId = ids[0]
        let verifier = JWSVerifier(roots: fixture.emulator.trustRoots)
        try await fixture.live { baseURL, _ in
            let api = fixture.serverAPI(baseURL)
            let window = NotificationHistoryRequest(start: start, end: Date().addingTimeInterval(5))
            var uuids: [String] = []
            var pageSizes: [Int] = []
            var token: String?
            repeat {
                let page = try await api.getNotificationHistory(window, paginationToken: token)
                pageSizes.append(page.notificationHistory?.count ?? 0)
                for item in page.notificationHistory ?? [] {
                    let notification = try await verifier.verifyNotification(try #require(item.signedPayload))
                    uuids.append(try #require(notification.notification.notificationUUID))
                    #expect(item.sendAttempts?.isEmpty == true, "no URL configured: never delivered")
                }
                token = page.paginationToken
                if page.hasMore != true { break }
            } while true
            #expect(pageSizes == [20, 6])
            #expect(Set(uuids).count == 26)

            var refunds = window
            refunds.notificationType = .refund
            let refundPage = try await api.getNotificationHistory(refunds, paginationToken: nil)
            #expect(refundPage.notificationHistory?.count == 1)
            // A transaction id narrows the history to its customer: all 26 are this one's.
            var forTransaction = window
            forTransaction.transactionId = refundedId
            let customerPage = try await api.getNotificationHistory(forTransaction, paginationToken: nil)
            #expect(customerPage.notificationHistory?.count == 20)
            #expect(customerPage.hasMore == true)

            // No notification URL: Apple has nowhere to send a test to.
            await #expect(throws: AppStoreServerAPIError.self) { _ = try await api.requestTestNotification() }
        }
    }

    @Test func consumptionInformationAndRefundHistory() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let first = try #require(
            try await fixture.emulator.purchase(deviceId: "p", PurchaseRequest(productId: "coins100")).transactionId)
        let second = try #require(
            try await fixture.emulator.purchase(deviceId: "p", PurchaseRequest(productId: "coins500")).transactionId)
        try await fixture.emulator.requestConsumption(transactionId: first)
        try await fixture.emulator.refund(transactionId: second)
        let verifier = JWSVerifier(roots: fixture.emulator.trustRoots)
        try await fixture.live { baseURL, client in
            let api = fixture.serverAPI(baseURL)
            try await api.sendConsumptionInformation(
                transactionId: first,
                ConsumptionRequest(
                    customerConsented: true, sampleContentProvided: false, deliveryStatus: .delivered,
                    consumptionPercentage: Milliunits.whole)
            )
            let recorded = try await client.execute(uri: "/emulator/v1/transactions/\(first)/consumption", method: .get)
            #expect(recorded.status == .ok)
            #expect(try JSON.decode(ConsumptionRequest.self, recorded.body).consumptionPercentage == Milliunits.whole)

            let refunds = try await api.getRefundHistory(transactionId: first, revision: nil)
            let refunded = try await (refunds.signedTransactions ?? []).asyncMap {
                try await verifier.verifyTransaction($0)
            }
            #expect(refunded.map(\.transactionId) == [second])
            #expect(refunded.first?.revocationDate != nil)
        }
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

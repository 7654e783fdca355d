import AppStoreAPI
import AppStoreModel
import AppStoreSigning
import AppStoreVerification
import Foundation
import Testing

@Suite("AppStoreServerAPIClient")
struct AppStoreServerAPIClientTests {
    private func client(
        _ transport: RecordingTransport, baseURL: URL = AppStoreServerAPIClient.sandboxBaseURL
    ) throws -> AppStoreServerAPIClient {
        AppStoreServerAPIClient(baseURL: baseURL, key: try Fixture.key(), transport: transport, now: { Fixture.now })
    }

    private func failure(_ body: () async throws -> Void) async -> AppStoreServerAPIError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? AppStoreServerAPIError
        }
    }

    @Test("Get Transaction Info: GET /inApps/v1/transactions/{id} with a verifiable bearer token")
    func transactionInfo() async throws {
        let transport = RecordingTransport(responses: [.json(#"{"signedTransactionInfo":"eyJ.signed.jws"}"#)])
        let signed = try await client(transport).getTransactionInfo(transactionId: "2000000123456789")
        #expect(signed == "eyJ.signed.jws")

        let request = try #require(await transport.requests.first)
        #expect(request.method == .get)
        #expect(
            request.url.absoluteString
                == "https://api.storekit-sandbox.apple.com/inApps/v1/transactions/2000000123456789")
        #expect(request.body == nil && request.headerValue("content-type") == nil)
        let token = try #require(request.bearerToken)
        let claims = try Fixture.verifier(for: Fixture.key()).verify(token, at: Fixture.now)
        #expect(claims.bundleId == Fixture.bundleId && claims.issuerId == Fixture.issuerId)
        #expect(claims.issuedAt == Int64(Fixture.now.timeIntervalSince1970) && claims.lifetime == 300)
    }

    @Test("every request carries a fresh token issued by the client's clock")
    func freshTokens() async throws {
        let transport = RecordingTransport(responses: [.json(#"{"signedTransactionInfo":"x"}"#)])
        let clock = TestClock(start: Fixture.now)
        let client = AppStoreServerAPIClient(
            environment: .production, key: try Fixture.key(), transport: transport)
        #expect(client.baseURL == AppStoreServerAPIClient.productionBaseURL)
        let ticking = AppStoreServerAPIClient(
            baseURL: client.baseURL, key: client.key, transport: transport, tokenLifetime: 600, now: { clock.tick() })
        _ = try await ticking.getTransactionInfo(transactionId: "1")
        _ = try await ticking.getTransactionInfo(transactionId: "2")
        let verifier = Fixture.verifier(for: try Fixture.key())
        let claims = try await transport.requests.map { try verifier.verify(#require($0.bearerToken), at: Fixture.now) }
        #expect(claims.map(\.issuedAt) == [1_709_294_400, 1_709_294_460])
        #expect(claims.allSatisfy { $0.lifetime == 600 })
        #expect(
            await transport.requests.map(\.url.absoluteString) == [
                "https://api.storekit.apple.com/inApps/v1/transactions/1",
                "https://api.storekit.apple.com/inApps/v1/transactions/2",
            ])
    }

    @Test("Get Transaction History pages by revision until hasMore is false")
    func historyPaging() async throws {
        let pages = [
            #"{"revision":"rev-1","hasMore":true,"bundleId":"com.example.storekeeper","environment":"Sandbox","signedTransactions":["t1","t2"]}"#,
            #"{"revision":"rev+2/=","hasMore":true,"bundleId":"com.example.storekeeper","environment":"Sandbox","signedTransactions":["t3"]}"#,
            #"{"revision":"rev-3","hasMore":false,"bundleId":"com.example.storekeeper","appAppleId":1234567890,"environment":"Sandbox","signedTransactions":["t4","t5"],"newField":1}"#,
        ]
        let transport = RecordingTransport { _, index in .json(pages[index]) }
        let history = try await client(transport).getAllTransactionHistory(transactionId: "1000")
        #expect(history.signedTransactions == ["t1", "t2", "t3", "t4", "t5"])
        #expect(history.revision == "rev-3" && history.hasMore == false)
        #expect(history.appAppleId == 1_234_567_890 && history.environment == .sandbox)
        #expect(history.bundleId == Fixture.bundleId)
        #expect(
            await transport.requests.map(\.url.absoluteString) == [
                "https://api.storekit-sandbox.apple.com/inApps/v2/history/1000",
                "https://api.storekit-sandbox.apple.com/inApps/v2/history/1000?revision=rev-1",
                "https://api.storekit-sandbox.apple.com/inApps/v2/history/1000?revision=rev%2B2%2F%3D",
            ])
        #expect(await transport.requests.allSatisfy { $0.method == .get && $0.bearerToken != nil })

        let single = try await client(RecordingTransport(responses: [.json(pages[2])]))
            .getTransactionHistory(transactionId: "1000", revision: "rev-2")
        #expect(single.signedTransactions == ["t4", "t5"] && single.hasMore == false)
    }

    @Test("paging stops with pagination_failed when hasMore comes without a new revision")
    func historyStall() async throws {
        let stalled = RecordingTransport(responses: [
            .json(#"{"revision":"same","hasMore":true,"signedTransactions":[]}"#)
        ])
        let client = try client(stalled)
        let error = try #require(await failure { _ = try await client.getAllTransactionHistory(transactionId: "1") })
        #expect(error.kind == .paginationFailed && !error.isRetryable)
        #expect(await stalled.requests.count == 2)

        let endless = RecordingTransport { _, index in .json(#"{"revision":"r\#(index)","hasMore":true}"#) }
        let capped = try self.client(endless)
        let capError = try #require(
            await failure { _ = try await capped.getAllTransactionHistory(transactionId: "1", maximumPages: 3) })
        #expect(capError.kind == .paginationFailed)
        #expect(await endless.requests.count == 3)
    }

    @Test("Get Refund History: GET /inApps/v2/refund/lookup/{id}?revision=, paged")
    func refundHistory() async throws {
        let transport = RecordingTransport { _, index in
            index == 0
                ? .json(#"{"signedTransactions":["r1"],"revision":"next","hasMore":true}"#)
                : .json(#"{"signedTransactions":["r2"],"revision":"last","hasMore":false}"#)
        }
        let all = try await client(transport).getAllRefundHistory(transactionId: "77")
        #expect(all.signedTransactions == ["r1", "r2"] && all.revision == "last")
        #expect(
            await transport.requests.map(\.url.path) == ["/inApps/v2/refund/lookup/77", "/inApps/v2/refund/lookup/77"])
        #expect(await transport.requests.map(\.url.query) == [nil, "revision=next"])
    }

    @Test("Look Up Order ID: GET /inApps/v1/lookup/{orderId}, the id percent-encoded")
    func orderLookup() async throws {
        let transport = RecordingTransport(responses: [
            .json(#"{"status":0,"signedTransactions":["a","b"]}"#), .json(#"{"status":1}"#),
        ])
        let client = try client(transport)
        let found = try await client.lookUpOrderId("MQ5T4Z2Q9J")
        #expect(found.status == .valid && found.signedTransactions == ["a", "b"])
        let invalid = try await client.lookUpOrderId("../x?y")
        #expect(invalid.status == .invalid && invalid.signedTransactions == nil)
        #expect(
            await transport.requests.map(\.url.absoluteString) == [
                "https://api.storekit-sandbox.apple.com/inApps/v1/lookup/MQ5T4Z2Q9J",
                "https://api.storekit-sandbox.apple.com/inApps/v1/lookup/..%2Fx%3Fy",
            ])
    }

    @Test("Get Notification History: POST with Apple's body, paginationToken in the query")
    func notificationHistory() async throws {
        let page = #"""
            {"notificationHistory":[{"signedPayload":"eyJ.p.s","sendAttempts":[{"attemptDate":1709294400000,"sendAttemptResult":"SUCCESS"},{"attemptDate":1709294500000,"sendAttemptResult":"TIMED_OUT"}]},{"signedPayload":"eyJ.q.s"}],"paginationToken":"tok-2","hasMore":true}
            """#
        let transport = RecordingTransport(responses: [.json(page)])
        let request = NotificationHistoryRequest(
            startDate: 1_709_000_000_000, endDate: 1_709_294_400_000, notificationType: .refund)
        let response = try await client(transport).getNotificationHistory(request, paginationToken: "tok-1")
        #expect(response.paginationToken == "tok-2" && response.hasMore == true)
        let items = try #require(response.notificationHistory)
        #expect(items.map(\.signedPayload) == ["eyJ.p.s", "eyJ.q.s"])
        #expect(items[0].sendAttempts?.map(\.sendAttemptResult) == [.success, .timedOut])
        #expect(items[0].sendAttempts?.first?.attemptDate == 1_709_294_400_000)
        #expect(items[1].sendAttempts == nil)

        let sent = try #require(await transport.requests.first)
        #expect(sent.method == .post)
        #expect(
            sent.url.absoluteString
                == "https://api.storekit-sandbox.apple.com/inApps/v1/notifications/history?paginationToken=tok-1")
        #expect(sent.headerValue("Content-Type") == "application/json")
        #expect(sent.bodyText == #"{"endDate":1709294400000,"notificationType":"REFUND","startDate":1709000000000}"#)
        #expect(sent.bearerToken != nil)

        let byTransaction = NotificationHistoryRequest(
            start: Date(timeIntervalSince1970: 1_709_000_000), end: Fixture.now, transactionId: "2000000001",
            onlyFailures: true)
        #expect(
            String(decoding: try JSONEncoder.sorted.encode(byTransaction), as: UTF8.self)
                == #"{"endDate":1709294400000,"onlyFailures":true,"startDate":1709000000000,"transactionId":"2000000001"}"#
        )
    }

    @Test("Request a Test Notification: POST /inApps/v1/notifications/test without a body")
    func testNotification() async throws {
        let transport = RecordingTransport(responses: [
            .json(#"{"testNotificationToken":"ce3af791-365e-4c60-841b-1674b43c1609_1709294400000"}"#)
        ])
        let token = try await client(transport).requestTestNotification()
        #expect(token == "ce3af791-365e-4c60-841b-1674b43c1609_1709294400000")
        let sent = try #require(await transport.requests.first)
        #expect(sent.method == .post && sent.body == nil)
        #expect(sent.url.path == "/inApps/v1/notifications/test")
    }

    @Test("Send Consumption Information: PUT to v2 with Apple's field names; 202 with no body succeeds")
    func consumption() async throws {
        let transport = RecordingTransport(responses: [HTTPResponseData(status: 202)])
        let request = ConsumptionRequest(
            customerConsented: true, sampleContentProvided: false, deliveryStatus: .delivered,
            consumptionPercentage: 25_000, refundPreference: .grantProrated)
        try await client(transport).sendConsumptionInformation(transactionId: "2000000555", request)
        let sent = try #require(await transport.requests.first)
        #expect(sent.method == .put)
        #expect(
            sent.url.absoluteString
                == "https://api.storekit-sandbox.apple.com/inApps/v2/transactions/consumption/2000000555")
        #expect(sent.headerValue("content-type") == "application/json")
        #expect(
            sent.bodyText
                == #"{"consumptionPercentage":25000,"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"GRANT_PRORATED","sampleContentProvided":false}"#
        )
    }

    @Test("Send Consumption Information V1: PUT to v1 with Apple's field names; 202 with no body succeeds")
    func consumptionV1() async throws {
        let transport = RecordingTransport(responses: [HTTPResponseData(status: 202)])
        let request = ConsumptionRequestV1(
            customerConsented: true, consumptionStatus: 2, platform: 1, sampleContentProvided: false,
            deliveryStatus: 0, appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138", accountTenure: 4,
            playTime: 3, lifetimeDollarsRefunded: 1, lifetimeDollarsPurchased: 3, userStatus: 1, refundPreference: 2)
        try await client(transport).sendConsumptionInformationV1(transactionId: "2000000555", request)
        let sent = try #require(await transport.requests.first)
        #expect(sent.method == .put)
        #expect(
            sent.url.absoluteString
                == "https://api.storekit-sandbox.apple.com/inApps/v1/transactions/consumption/2000000555")
        #expect(sent.headerValue("content-type") == "application/json")
        #expect(
            sent.bodyText
                == #"{"accountTenure":4,"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138","consumptionStatus":2,"customerConsented":true,"deliveryStatus":0,"lifetimeDollarsPurchased":3,"lifetimeDollarsRefunded":1,"platform":1,"playTime":3,"refundPreference":2,"sampleContentProvided":false,"userStatus":1}"#
        )
        let decoded = try JSONDecoder().decode(ConsumptionRequestV1.self, from: try #require(sent.body))
        #expect(decoded == request)
    }

    @Test("an emulator base URL keeps its path prefix")
    func emulatorBaseURL() async throws {
        let transport = RecordingTransport(responses: [.json(#"{"signedTransactionInfo":"x"}"#)])
        _ = try await client(transport, baseURL: URL(string: "http://127.0.0.1:8080/sandbox")!)
            .getTransactionInfo(transactionId: "42")
        #expect(
            await transport.requests.first?.url.absoluteString
                == "http://127.0.0.1:8080/sandbox/inApps/v1/transactions/42")
    }

    @Test("401 is unauthorized and not retryable")
    func unauthorized() async throws {
        let client = try client(RecordingTransport(responses: [HTTPResponseData(status: 401)]))
        let error = try #require(await failure { _ = try await client.getTransactionInfo(transactionId: "1") })
        #expect(error.kind == .httpError && error.httpStatus == 401 && error.isUnauthorized)
        #expect(error.errorCode == nil && !error.isRetryable)
    }

    @Test("404 carries Apple's errorCode and errorMessage; retryable codes are retryable")
    func notFound() async throws {
        let client = try client(
            RecordingTransport(responses: [
                .json(#"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#, status: 404)
            ]))
        let error = try #require(await failure { _ = try await client.getTransactionInfo(transactionId: "1") })
        #expect(error.httpStatus == 404 && error.isNotFound)
        #expect(error.errorCode == .transactionIdNotFound && error.errorMessage == "Transaction id not found.")
        #expect(!error.isRetryable)

        let retryable = try self.client(
            RecordingTransport(responses: [
                .json(#"{"errorCode":4040002,"errorMessage":"Account not found. Please try again."}"#, status: 404)
            ]))
        let retry = try #require(await failure { _ = try await retryable.lookUpOrderId("X") })
        #expect(retry.errorCode == .accountNotFoundRetryable && retry.isRetryable)
    }

    @Test("a Retry-After that is no delay in seconds (nan, inf, negative, a date) is not reported")
    func retryAfterThatIsNoDelay() async throws {
        for header in ["nan", "inf", "-5", "1e400", "Wed, 21 Oct 2015 07:28:00 GMT"] {
            let limited = try client(
                RecordingTransport(responses: [
                    .json(#"{"errorCode":4290000}"#, status: 429, headers: ["Retry-After": header])
                ]))
            let rate = try #require(await failure { _ = try await limited.getTransactionInfo(transactionId: "1") })
            #expect(rate.httpStatus == 429 && rate.retryAfter == nil, "Retry-After: \(header)")
        }
    }

    @Test("429, 5xx and transport failures are retryable; 429 reports Retry-After")
    func retryable() async throws {
        let limited = try client(
            RecordingTransport(responses: [
                .json(
                    #"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#, status: 429,
                    headers: ["Retry-After": "5"])
            ]))
        let rate = try #require(await failure { _ = try await limited.getTransactionHistory(transactionId: "1") })
        #expect(rate.httpStatus == 429 && rate.errorCode == .rateLimitExceeded && rate.retryAfter == 5)
        #expect(rate.isRetryable)

        let down = try client(RecordingTransport(responses: [HTTPResponseData(status: 503, body: Data("busy".utf8))]))
        let server = try #require(await failure { _ = try await down.requestTestNotification() })
        #expect(server.httpStatus == 503 && server.isRetryable && server.message == "busy")

        let refused = try client(RecordingTransport { _, _ in throw ConnectionRefused() })
        let transportError = try #require(
            await failure { _ = try await refused.getTransactionInfo(transactionId: "1") })
        #expect(
            transportError.kind == .transportFailed && transportError.httpStatus == nil && transportError.isRetryable)

        let badRequest = try client(
            RecordingTransport(responses: [
                .json(#"{"errorCode":4000006,"errorMessage":"Invalid transaction id."}"#, status: 400)
            ]))
        let invalid = try #require(await failure { _ = try await badRequest.getTransactionInfo(transactionId: "x") })
        #expect(invalid.errorCode == .invalidTransactionId && !invalid.isRetryable)
    }

    @Test("a 200 body that is not the documented response is undecodable_response")
    func undecodable() async throws {
        let client = try client(RecordingTransport(responses: [.json("[]"), .json("{}")]))
        let notObject = try #require(await failure { _ = try await client.getTransactionHistory(transactionId: "1") })
        #expect(notObject.kind == .undecodableResponse && notObject.httpStatus == 200 && !notObject.isRetryable)
        let missing = try #require(await failure { _ = try await client.getTransactionInfo(transactionId: "1") })
        #expect(missing.kind == .undecodableResponse)
    }

    @Test("a stand-in server that checks tokens with AppStoreServerAPITokenVerifier accepts the client's")
    func againstVerifyingServer() async throws {
        let key = try Fixture.key()
        let verifier = Fixture.verifier(for: key)
        let server = ClosureHTTPTransport { request in
            do {
                let claims = try verifier.verify(authorizationHeader: request.headerValue("Authorization"), at: Date())
                return .json(#"{"signedTransactionInfo":"for-\#(claims.bundleId)"}"#)
            } catch let error as AppStoreServerAPITokenError {
                return .json(#"{"errorMessage":"\#(error.code.rawValue)"}"#, status: 401)
            }
        }
        let good = AppStoreServerAPIClient(key: key, transport: server)
        #expect(try await good.getTransactionInfo(transactionId: "1") == "for-\(Fixture.bundleId)")

        let stranger = AppStoreServerAPIClient(
            key: .generate(issuerId: Fixture.issuerId, keyId: Fixture.keyId, bundleId: Fixture.bundleId),
            transport: server)
        let error = try #require(await failure { _ = try await stranger.getTransactionInfo(transactionId: "1") })
        #expect(error.isUnauthorized && error.errorMessage == "signature_invalid")
    }

    @Test("AsyncHTTPClientTransport reports a refused connection as a retryable transport failure")
    func asyncHTTPClientTransport() async throws {
        let client = AppStoreServerAPIClient(
            baseURL: URL(string: "http://127.0.0.1:1")!, key: try Fixture.key(),
            transport: AsyncHTTPClientTransport(timeout: 1))
        let error = try #require(await failure { _ = try await client.getTransactionInfo(transactionId: "1") })
        #expect(error.kind == .transportFailed && error.isRetryable)
    }

    @Test("AsyncHTTPClientTransport sends method, path, headers and body, and returns status, headers and body")
    func asyncHTTPClientTransportRoundTrip() async throws {
        let server = try OneShotHTTPServer()
        let body = #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#
        async let served = server.serveOnce(
            response: "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nX-Test: a\r\nX-Test: b\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        let transport = AsyncHTTPClientTransport(timeout: 10)
        let request = HTTPRequestData(
            method: .put, url: URL(string: "http://127.0.0.1:\(server.port)/sandbox/inApps/v1/x?revision=r%2B1")!,
            headers: ["Authorization": "Bearer abc", "Content-Type": "application/json"], body: Data(#"{"a":1}"#.utf8))
        let response = try await transport.send(request)
        let raw = await served

        #expect(raw.hasPrefix("PUT /sandbox/inApps/v1/x?revision=r%2B1 HTTP/1.1\r\n"))
        #expect(raw.lowercased().contains("authorization: bearer abc\r\n"))
        #expect(raw.hasSuffix("\r\n\r\n{\"a\":1}"))
        #expect(response.status == 404)
        #expect(response.headerValue("x-test") == "a, b")
        #expect(String(decoding: response.body, as: UTF8.self) == body)
    }
}

/// A clock that advances one minute per reading.
final class TestClock: Sendable {
    private let readings: Counter
    private let start: Date

    init(start: Date) {
        self.start = start
        self.readings = Counter()
    }

    func tick() -> Date { start.addingTimeInterval(TimeInterval(readings.next()) * 60) }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        let current = value
        value += 1
        return current
    }
}

extension JSONEncoder {
    /// An encoder with sorted keys, for comparing JSON text.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

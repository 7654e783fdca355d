import AppStoreAPI
import AppStoreModel
import Foundation
import Testing

@Suite("VerifyReceiptClient")
struct VerifyReceiptClientTests {
    private static func response(_ status: Int, environment: String? = nil, retryable: Bool? = nil) -> HTTPResponseData
    {
        var fields = [#""status":\#(status)"#]
        if let environment { fields.append(#""environment":"\#(environment)""#) }
        if let retryable { fields.append(#""is-retryable":\#(retryable)"#) }
        return .json("{" + fields.joined(separator: ",") + "}")
    }

    @Test("production first; on 21007 the same body goes to the sandbox")
    func sandboxFallback() async throws {
        let transport = RecordingTransport(responses: [
            Self.response(21007, environment: "Production"), Self.response(0, environment: "Sandbox"),
        ])
        let client = VerifyReceiptClient(sharedSecret: "s3cr3t", excludeOldTransactions: true, transport: transport)
        let result = try await client.verify(receiptData: "TUlJ+/=")
        #expect(result.status == .valid)
        #expect(result.environment == .sandbox)

        let requests = await transport.requests
        try #require(requests.count == 2)
        #expect(
            requests.map(\.url.absoluteString) == [
                "https://buy.itunes.apple.com/verifyReceipt", "https://sandbox.itunes.apple.com/verifyReceipt",
            ])
        for request in requests {
            #expect(request.method == .post)
            #expect(request.headerValue("content-type") == "application/json")
            #expect(
                request.bodyText == #"{"exclude-old-transactions":true,"password":"s3cr3t","receipt-data":"TUlJ+/="}"#)
            #expect(request.headerValue("authorization") == nil)
        }
    }

    @Test("a production answer other than 21007 is returned after one call, retryable statuses included")
    func noFallback() async throws {
        for status in [0, 21002, 21003, 21005, 21100] {
            let transport = RecordingTransport(responses: [Self.response(status, retryable: status == 21100)])
            let result = try await VerifyReceiptClient(transport: transport).verify(receiptData: "abc")
            #expect(result.status.rawValue == status)
            #expect(await transport.requests.count == 1)
            #expect(await transport.requests.first?.bodyText == #"{"receipt-data":"abc"}"#)
        }
    }

    @Test("starting at the sandbox, 21008 goes to production; redirects are followed once")
    func productionFallbackAndNoLoop() async throws {
        let transport = RecordingTransport(responses: [
            Self.response(21008), Self.response(0, environment: "Production"),
        ])
        let result = try await VerifyReceiptClient(transport: transport).verify(
            receiptData: "abc", startingAt: .sandbox)
        #expect(result.environment == .production)
        #expect(await transport.requests.map(\.url.host) == ["sandbox.itunes.apple.com", "buy.itunes.apple.com"])

        let looping = RecordingTransport(responses: [Self.response(21007)])
        let last = try await VerifyReceiptClient(transport: looping).verify(receiptData: "abc")
        #expect(last.status == .sandboxReceiptSentToProduction)
        #expect(await looping.requests.count == 2)
    }

    @Test("base URLs are configuration; the path is /verifyReceipt under each")
    func configuredURLs() async throws {
        let transport = RecordingTransport(responses: [Self.response(21007), Self.response(0)])
        let client = VerifyReceiptClient(
            productionBaseURL: URL(string: "http://127.0.0.1:8090/emulator/production")!,
            sandboxBaseURL: URL(string: "http://127.0.0.1:8090/emulator/sandbox/")!,
            transport: transport)
        _ = try await client.verify(receiptData: "abc")
        #expect(
            await transport.requests.map(\.url.absoluteString) == [
                "http://127.0.0.1:8090/emulator/production/verifyReceipt",
                "http://127.0.0.1:8090/emulator/sandbox/verifyReceipt",
            ])
    }

    @Test("transport failures, non-200 answers and undecodable bodies throw typed errors")
    func errors() async throws {
        func failure(_ transport: RecordingTransport) async -> VerifyReceiptClientError? {
            do {
                _ = try await VerifyReceiptClient(transport: transport).verify(receiptData: "abc")
                return nil
            } catch {
                return error
            }
        }

        let refused = try #require(await failure(RecordingTransport { _, _ in throw ConnectionRefused() }))
        #expect(refused.kind == .transportFailed && refused.isRetryable && refused.environment == .production)

        let unavailable = try #require(await failure(RecordingTransport(responses: [HTTPResponseData(status: 503)])))
        #expect(unavailable.kind == .unexpectedStatus && unavailable.httpStatus == 503 && unavailable.isRetryable)

        let notFound = try #require(await failure(RecordingTransport(responses: [HTTPResponseData(status: 404)])))
        #expect(notFound.kind == .unexpectedStatus && !notFound.isRetryable)

        let html = try #require(await failure(RecordingTransport(responses: [.json("<html>oops</html>")])))
        #expect(html.kind == .undecodableResponse && !html.isRetryable)

        // A failure at the sandbox after the redirect names the sandbox.
        let sandboxDown = try #require(
            await failure(RecordingTransport(responses: [Self.response(21007), HTTPResponseData(status: 500)])))
        #expect(sandboxDown.environment == .sandbox && sandboxDown.httpStatus == 500)
    }
}

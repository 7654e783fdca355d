import AppStoreAPI
import AppStoreModel
import Foundation
import Testing

@Suite("AppStoreServerAPIClient: Finish Transaction and Set App Account Token")
struct AppStoreServerAPIClientTransactionTests {
    private func client(_ transport: RecordingTransport) throws -> AppStoreServerAPIClient {
        AppStoreServerAPIClient(
            baseURL: URL(string: "http://127.0.0.1:8080/sandbox")!, key: try Fixture.key(), transport: transport,
            now: { Fixture.now })
    }

    private func failure(_ body: () async throws -> Void) async -> AppStoreServerAPIError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? AppStoreServerAPIError
        }
    }

    @Test("Finish Transaction: POST /inApps/v1/transactions/{id}/finish, no body, 200 with no body succeeds")
    func finish() async throws {
        let transport = RecordingTransport(responses: [HTTPResponseData(status: 200)])
        try await client(transport).finishTransaction(transactionId: "2000000123456789")
        let sent = try #require(await transport.requests.first)
        #expect(sent.method == .post)
        #expect(
            sent.url.absoluteString == "http://127.0.0.1:8080/sandbox/inApps/v1/transactions/2000000123456789/finish")
        #expect(sent.body == nil && sent.headerValue("content-type") == nil)
        let claims = try Fixture.verifier(for: Fixture.key()).verify(try #require(sent.bearerToken), at: Fixture.now)
        #expect(claims.bundleId == Fixture.bundleId)
    }

    @Test("Finish Transaction: an id that is not one path segment stays one (percent-encoded)")
    func finishEncodesTheId() async throws {
        let transport = RecordingTransport(responses: [HTTPResponseData(status: 200)])
        try await client(transport).finishTransaction(transactionId: "1/2")
        #expect(
            await transport.requests.first?.url.absoluteString
                == "http://127.0.0.1:8080/sandbox/inApps/v1/transactions/1%2F2/finish")
    }

    @Test("Finish Transaction: Apple's 404 and 5xx keep their code and retryability")
    func finishErrors() async throws {
        let unknown = try client(
            RecordingTransport(responses: [
                .json(#"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#, status: 404)
            ]))
        let notFound = try #require(await failure { try await unknown.finishTransaction(transactionId: "9") })
        #expect(notFound.isNotFound && notFound.errorCode == .transactionIdNotFound && !notFound.isRetryable)

        let down = try client(
            RecordingTransport(responses: [.json(#"{"errorCode":5000001}"#, status: 500)]))
        let outage = try #require(await failure { try await down.finishTransaction(transactionId: "9") })
        #expect(outage.httpStatus == 500 && outage.errorCode == .generalInternalRetryable && outage.isRetryable)
    }

    @Test(
        "Set App Account Token: PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken with Apple's body")
    func setToken() async throws {
        let transport = RecordingTransport(responses: [HTTPResponseData(status: 200)])
        try await client(transport).setAppAccountToken(
            originalTransactionId: "2000000100", appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        let sent = try #require(await transport.requests.first)
        #expect(sent.method == .put)
        #expect(
            sent.url.absoluteString
                == "http://127.0.0.1:8080/sandbox/inApps/v1/transactions/2000000100/appAccountToken")
        #expect(sent.headerValue("content-type") == "application/json")
        #expect(sent.bodyText == #"{"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138"}"#)
        let decoded = try JSONDecoder().decode(UpdateAppAccountTokenRequest.self, from: try #require(sent.body))
        #expect(decoded.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
    }

    @Test("Set App Account Token: an empty token (removal) is sent as an empty string")
    func clearToken() async throws {
        let transport = RecordingTransport(responses: [HTTPResponseData(status: 200)])
        try await client(transport).setAppAccountToken(originalTransactionId: "2000000100", appAccountToken: "")
        #expect(await transport.requests.first?.bodyText == #"{"appAccountToken":""}"#)
    }

    @Test(
        "Set App Account Token: Apple's 400 codes (not a UUID, not an original id, Family Sharing) are not retryable",
        arguments: [
            (4_000_183, APIErrorCode.invalidAppAccountTokenUUID),
            (4_000_187, APIErrorCode.transactionIdIsNotOriginalTransactionId),
            (4_000_185, APIErrorCode.familyTransactionNotSupported),
        ])
    func setTokenRefusals(code: Int, expected: APIErrorCode) async throws {
        let refusing = try client(
            RecordingTransport(responses: [
                .json(#"{"errorCode":\#(code),"errorMessage":"Invalid request."}"#, status: 400)
            ]))
        let error = try #require(
            await failure { try await refusing.setAppAccountToken(originalTransactionId: "1", appAccountToken: "x") })
        #expect(error.kind == .httpError && error.httpStatus == 400)
        #expect(error.errorCode == expected && error.errorMessage == "Invalid request." && !error.isRetryable)
    }

    @Test("Set App Account Token: a transport failure is retryable")
    func setTokenTransportFailure() async throws {
        let refused = try client(RecordingTransport { _, _ in throw ConnectionRefused() })
        let error = try #require(
            await failure { try await refused.setAppAccountToken(originalTransactionId: "1", appAccountToken: "x") })
        #expect(error.kind == .transportFailed && error.isRetryable)
    }
}

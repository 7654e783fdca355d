import AppStoreEmulator
import AppStoreModel
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Raw App Store Server API calls, for the tests that check Apple's exact answers: status,
/// `errorCode`, and bodies the AppStoreAPI client has no method for.
extension EmulatorFixture {
    /// Calls `{environment}/inApps/{path}` with a fresh bearer token for the emulator's key.
    func call(
        _ client: some TestClientProtocol,
        _ method: HTTPRequest.Method,
        _ path: String,
        environment: String = "sandbox",
        body: ByteBuffer? = nil
    ) async throws -> TestResponse {
        try await client.execute(
            uri: "/\(environment)/inApps/\(path)",
            method: method,
            headers: [.authorization: "Bearer " + (try emulator.identity.apiKey.makeToken())],
            body: body
        )
    }

    /// Buys `product` on `device` in the sandbox and returns the transaction id.
    func buy(_ product: String, on device: String = "p", token: String? = nil) async throws -> String {
        try #require(
            try await emulator.purchase(
                deviceId: device, PurchaseRequest(productId: product, appAccountToken: token)
            ).transactionId)
    }
}

/// Checks an answer is Apple's error: the status and `{"errorCode": code, …}`.
func expectAPIError(
    _ response: TestResponse, _ status: HTTPResponse.Status, _ code: APIErrorCode,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(response.status == status, sourceLocation: sourceLocation)
    #expect(response.headers[.contentType] == "application/json", sourceLocation: sourceLocation)
    let body = try JSON.decode(APIErrorResponse.self, response.body)
    #expect(body.errorCode == code, "\(body.errorMessage ?? "")", sourceLocation: sourceLocation)
}

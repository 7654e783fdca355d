import AppStoreAPI
import AppStoreModel
import Foundation
import GooglePlayAPI
import Ledger
import PlayModel
import Synchronization
import Testing

@testable import PurchaseServer

/// The Play Developer API client's token flow and error classification, and the verifier's
/// reading of Google's answers, without a network.
@Suite("Google Play API client and verifier")
struct GooglePlayAPIClientTests {
    /// A token source over `transport`, with the test process's RSA key.
    static func tokens(_ transport: any HTTPTransport) throws -> GoogleAccessTokenSource {
        let key = ServiceAccountKey(
            projectId: "p", privateKeyId: "k1", privateKey: try ServerFixture.playKeyPEMs.get()[0],
            clientEmail: "s@p.iam.gserviceaccount.com", clientId: nil, tokenUri: "http://127.0.0.1:1/token")
        return GoogleAccessTokenSource(serviceAccount: { key }, transport: transport)
    }

    @Test("one token is fetched for many callers, kept, and replaced after the API refuses it")
    func tokenCachedAndRefreshedOnce() async throws {
        let posts = Atomic<Int>(0)
        let transport = ClosureHTTPTransport { request in
            #expect(request.url.path == "/token")
            let form = String(decoding: request.body ?? Data(), as: UTF8.self)
            #expect(form.hasPrefix("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant%2Dtype%3Ajwt%2Dbearer&assertion="))
            let count = posts.add(1, ordering: .sequentiallyConsistent).newValue
            return HTTPResponseData(
                status: 200,
                body: Data(#"{"access_token":"token-\#(count)","expires_in":3599,"token_type":"Bearer"}"#.utf8))
        }
        let source = try Self.tokens(transport)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<10 { group.addTask { try await source.token() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(tokens == ["token-1"])
        #expect(posts.load(ordering: .sequentiallyConsistent) == 1)
        await source.invalidate("token-1")
        #expect(try await source.token() == "token-2")
    }

    @Test("Google's errors are typed: 429 and 5xx retryable, other 4xx not; a 401 is retried with a new token")
    func errors() async throws {
        let answers = Mutex<[Int]>([401, 503, 404])
        let transport = ClosureHTTPTransport { request in
            if request.url.path == "/token" {
                return HTTPResponseData(
                    status: 200, body: Data(#"{"access_token":"t","expires_in":3599,"token_type":"Bearer"}"#.utf8))
            }
            let status = answers.withLock { $0.removeFirst() }
            let reason = status == 404 ? "notFound" : "backendError"
            return HTTPResponseData(
                status: status,
                body: Data(
                    #"{"error":{"code":\#(status),"message":"m","status":"S","errors":[{"domain":"global","reason":"\#(reason)","message":"m"}]}}"#
                        .utf8))
        }
        let client = GooglePlayDeveloperAPIClient(
            baseURL: URL(string: "http://127.0.0.1:1")!, packageName: "com.example.game",
            tokens: try Self.tokens(transport), transport: transport)
        do {
            _ = try await client.productPurchase(productId: "coins100", token: "tok")
            Issue.record("a 503 answered")
        } catch {
            #expect(error.httpStatus == 503)
            #expect(error.isRetryable)
            #expect(PlayPurchaseVerifier.refusal(error, orderId: nil).reason == "play_unavailable")
        }
        do {
            _ = try await client.productPurchase(productId: "coins100", token: "tok")
            Issue.record("a 404 answered")
        } catch {
            #expect(error.reason == "notFound")
            #expect(!error.isRetryable)
            #expect(PlayPurchaseVerifier.refusal(error, orderId: nil).reason == "purchase_token_not_found")
        }
        let transportFailure = GooglePlayAPIError(kind: .transportFailed, message: "refused")
        #expect(transportFailure.isRetryable)
        let tooMany = GooglePlayAPIError(kind: .httpError, httpStatus: 429, message: "slow down")
        #expect(tooMany.isRetryable)
        let app = GooglePlayAPIError(kind: .httpError, httpStatus: 404, reason: "applicationNotFound", message: "m")
        #expect(PlayPurchaseVerifier.refusal(app, orderId: nil).reason == "play_application_not_found")
    }

    @Test("Google's ProductPurchase becomes the transaction; a real-money purchase is production")
    func verifiedTransaction() throws {
        let report = GooglePlayReport(productId: "coins100", purchaseToken: "token-1", orderId: nil)
        var purchase = ProductPurchase(
            purchaseTimeMillis: "1700000000000", purchaseState: 0, orderId: nil, purchaseType: nil,
            quantity: 2, obfuscatedExternalAccountId: "0F1A2B3C-0000-4000-8000-000000000000")
        let promo = try PlayPurchaseVerifier.transaction(purchase, report: report, allowedEnvironments: [.production])
        #expect(promo.store == .googlePlay)
        #expect(promo.transactionId == "token-1")
        #expect(promo.originalTransactionId == "token-1")
        #expect(promo.quantity == 2)
        #expect(promo.environment == .production)
        #expect(promo.appAccountToken == "0f1a2b3c-0000-4000-8000-000000000000")
        #expect(promo.purchaseDate == Date(timeIntervalSince1970: 1_700_000_000))

        purchase.purchaseType = 0
        #expect(throws: DeliveryRefusal.self) {
            try PlayPurchaseVerifier.transaction(purchase, report: report, allowedEnvironments: [.production])
        }
        purchase.purchaseTimeMillis = "soon"
        #expect(throws: DeliveryRefusal.self) {
            try PlayPurchaseVerifier.transaction(purchase, report: report, allowedEnvironments: [.sandbox])
        }
    }
}

import Foundation
import Hummingbird
import PlayEmulator
import PlayModel
import PlaySigning
import Testing

@Suite struct PlayAuthorizationTests {
    /// The issued service account is Google's shape and names the emulator's own token endpoint.
    @Test func theServiceAccountNamesTheEmulatorsTokenEndpoint() async throws {
        try await PlayFixture().live { play in
            let account = try await play.serviceAccount()
            #expect(account.type == "service_account")
            // No base URL is configured, so the request's Host gives it: the test client sends
            // `Host: localhost`.
            #expect(account.tokenUri == "http://localhost/token")
            #expect(account.privateKey.hasPrefix("-----BEGIN PRIVATE KEY-----"))
            #expect(account.privateKeyId.count == 40)
            #expect(account.clientEmail.hasSuffix(".iam.gserviceaccount.com"))
            // The same key on every call.
            let again = try await play.serviceAccount()
            #expect(again == account)
        }
    }

    @Test func aConfiguredBaseURLGivesTheTokenURI() async throws {
        try await PlayFixture(baseURL: URL(string: "http://play.test:9090")).live { play in
            let account = try await play.serviceAccount()
            #expect(account.tokenUri == "http://play.test:9090/token")
        }
    }

    @Test func aGoodAssertionGetsABearerToken() async throws {
        try await PlayFixture().live { play in
            let account = try await play.serviceAccount()
            let (status, answer) = try await play.token(form: [
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
                ("assertion", try play.assertion(account)),
            ])
            #expect(status == .ok)
            #expect(answer["token_type"] as? String == "Bearer")
            #expect(answer["expires_in"] as? Int == 3599)
            #expect((answer["access_token"] as? String)?.hasPrefix("ya29.") == true)
            // Google's library addresses its assertions to Google's token endpoint whatever
            // the token_uri; Google accepts that audience, and so does the emulator.
            let (google, googleAnswer) = try await play.token(form: [
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
                ("assertion", try play.assertion(account) { $0["aud"] = .init("https://oauth2.googleapis.com/token") }),
            ])
            #expect(google == .ok, "\(googleAnswer)")
        }
    }

    /// Every way an assertion can be wrong is `invalid_grant` with 400 (a missing scope is
    /// `invalid_scope`, a wrong grant type `unsupported_grant_type`).
    @Test func badAssertionsAreInvalidGrant() async throws {
        try await PlayFixture().live { play in
            let account = try await play.serviceAccount()
            let now = Int64(Date().timeIntervalSince1970)
            var foreign = account
            foreign.privateKey = RSAKeyPEM.pkcs8PEM(of: try RSAKeyPEM.generate())
            let parts = try play.assertion(account).split(separator: ".").map(String.init)
            let tampered = [
                parts[0], try play.assertion(account) { $0["iss"] = .init("x@y") }.split(separator: ".")[1].description,
                parts[2],
            ]
            .joined(separator: ".")
            let cases: [(String, String)] = [
                ("another key", try play.assertion(foreign)),
                ("tampered claims", tampered),
                ("unknown kid", try play.assertion(account, keyId: "other")),
                ("another issuer", try play.assertion(account) { $0["iss"] = .init("someone@example.com") }),
                (
                    "another audience",
                    try play.assertion(account) { $0["aud"] = .init("https://example.com/token") }
                ),
                (
                    "expired",
                    try play.assertion(account) {
                        $0["iat"] = .init(now - 7200)
                        $0["exp"] = .init(now - 3600)
                    }
                ),
                ("longer than an hour", try play.assertion(account) { $0["exp"] = .init(now + 7200) }),
                (
                    "issued in the future",
                    try play.assertion(account) {
                        $0["iat"] = .init(now + 3600)
                        $0["exp"] = .init(now + 3700)
                    }
                ),
                ("not a JWT", "abc.def"),
            ]
            for (name, assertion) in cases {
                let (status, answer) = try await play.token(form: [
                    ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion),
                ])
                #expect(status == .badRequest, "\(name)")
                #expect(answer["error"] as? String == "invalid_grant", "\(name): \(answer)")
                #expect(answer["error_description"] is String, "\(name)")
            }
            let (scope, scopeAnswer) = try await play.token(form: [
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
                (
                    "assertion",
                    try play.assertion(account) {
                        $0["scope"] = .init("https://www.googleapis.com/auth/cloud-platform")
                    }
                ),
            ])
            #expect(scope == .badRequest)
            #expect(scopeAnswer["error"] as? String == "invalid_scope")
            let (grant, grantAnswer) = try await play.token(form: [
                ("grant_type", "client_credentials"), ("assertion", try play.assertion(account)),
            ])
            #expect(grant == .badRequest)
            #expect(grantAnswer["error"] as? String == "unsupported_grant_type")
        }
    }

    /// Without a bearer token, or with one the emulator did not issue, the API answers 401
    /// in Google's envelope.
    @Test func theAPIRequiresABearerToken() async throws {
        try await PlayFixture().live { play in
            let path = PlayClient.tokenPath("some-token")
            let (missing, missingBody) = try await play.call(.get, path)
            #expect(missing == .unauthorized)
            let error = try #require(missingBody["error"] as? [String: Any])
            #expect(error["code"] as? Int == 401)
            #expect(error["status"] as? String == "UNAUTHENTICATED")
            #expect(reason(missingBody) == "required")
            let (bad, badBody) = try await play.call(.get, path, bearer: "ya29.made-up")
            #expect(bad == .unauthorized)
            #expect(reason(badBody) == "authError")
            let (ack, _) = try await play.call(.post, path + ":acknowledge", bearer: "ya29.made-up")
            #expect(ack == .unauthorized)
        }
    }

    /// Under `/androidpublisher`, a path the emulator does not serve is Google's 404 and a
    /// method a path is not served with Google's 405 with `Allow`.
    @Test func unservedRequestsUnderTheAPIAreInGooglesShape() async throws {
        try await PlayFixture().live { play in
            let (unknown, unknownBody) = try await play.call(.get, "/androidpublisher/v3/applications/x/reviews")
            #expect(unknown == .notFound)
            #expect((unknownBody["error"] as? [String: Any])?["code"] as? Int == 404)
            #expect(reason(unknownBody) == "notFound")
            let response = try await play.client.execute(uri: PlayClient.tokenPath("t"), method: .put)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "GET, POST")
            let body = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
            #expect((body?["error"] as? [String: Any])?["code"] as? Int == 405)
        }
    }

    /// An unknown token is 404, another package 404, another product's token 400: Google's envelope.
    @Test func unknownPurchasesAreGooglesErrors() async throws {
        try await PlayFixture().live { play in
            let access = try await play.accessToken()
            let (unknown, body) = try await play.call(.get, PlayClient.tokenPath("no-such-token"), bearer: access)
            #expect(unknown == .notFound)
            let error = try #require(body["error"] as? [String: Any])
            #expect(error["code"] as? Int == 404)
            #expect(error["status"] as? String == "NOT_FOUND")
            #expect(error["message"] is String)
            let (consume, _) = try await play.call(
                .post, PlayClient.tokenPath("no-such-token") + ":consume", bearer: access)
            #expect(consume == .notFound)

            let (_, purchase) = try await play.call(
                .post, "/emulator/v1/play/devices/phone-9/purchases",
                json: PlayDevicePurchaseRequest(productId: "coins100"))
            let token = try #require(purchase["purchaseToken"] as? String)
            let (package, packageBody) = try await play.call(
                .get, PlayClient.tokenPath(token, package: "com.other.app"), bearer: access)
            #expect(package == .notFound)
            #expect(reason(packageBody) == "applicationNotFound")
            let (product, productBody) = try await play.call(
                .get, PlayClient.tokenPath(token, product: "coins500"), bearer: access)
            #expect(product == .badRequest)
            #expect(reason(productBody) == "purchaseTokenDoesNotMatchProductId")
            let (method, _) = try await play.call(.post, PlayClient.tokenPath(token) + ":refund", bearer: access)
            #expect(method == .notFound)
        }
    }
}

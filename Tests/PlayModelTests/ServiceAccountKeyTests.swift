import Foundation
import PlayModel
import Testing

@Suite struct ServiceAccountKeyTests {
    /// The shape of a key file the Cloud console downloads (the key itself shortened).
    static let sample = """
        {
          "type": "service_account",
          "project_id": "my-project",
          "private_key_id": "0123456789abcdef0123456789abcdef01234567",
          "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBg==\\n-----END PRIVATE KEY-----\\n",
          "client_email": "play@my-project.iam.gserviceaccount.com",
          "client_id": "123456789012345678901",
          "auth_uri": "https://accounts.google.com/o/oauth2/auth",
          "token_uri": "https://oauth2.googleapis.com/token",
          "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
          "client_x509_cert_url": "https://www.googleapis.com/robot/v1/metadata/x509/play%40my-project.iam.gserviceaccount.com",
          "universe_domain": "googleapis.com"
        }
        """

    @Test func decodesAConsoleKeyFile() throws {
        let key = try JSONDecoder().decode(ServiceAccountKey.self, from: Data(Self.sample.utf8))
        #expect(key.type == ServiceAccountKey.serviceAccountType)
        #expect(key.projectId == "my-project")
        #expect(key.privateKeyId == "0123456789abcdef0123456789abcdef01234567")
        #expect(key.privateKey.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(key.clientEmail == "play@my-project.iam.gserviceaccount.com")
        #expect(key.clientId == "123456789012345678901")
        #expect(key.tokenUri == "https://oauth2.googleapis.com/token")
        #expect(key.universeDomain == "googleapis.com")
    }

    @Test func roundTripsWithSnakeCaseNames() throws {
        let key = try JSONDecoder().decode(ServiceAccountKey.self, from: Data(Self.sample.utf8))
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(key)) as? [String: Any])
        #expect(object["token_uri"] as? String == "https://oauth2.googleapis.com/token")
        #expect(object["private_key_id"] as? String == key.privateKeyId)
        #expect(try JSONDecoder().decode(ServiceAccountKey.self, from: JSONEncoder().encode(key)) == key)
    }

    @Test func tokenAnswersUseOAuthNames() throws {
        let answer = try JSONDecoder().decode(
            OAuthTokenResponse.self,
            from: Data(#"{"access_token":"ya29.abc","expires_in":3599,"token_type":"Bearer"}"#.utf8))
        #expect(answer == OAuthTokenResponse(accessToken: "ya29.abc", expiresIn: 3599))
        let error = try JSONDecoder().decode(
            OAuthErrorResponse.self, from: Data(#"{"error":"invalid_grant","error_description":"Invalid JWT"}"#.utf8))
        #expect(error.error == "invalid_grant")
        #expect(error.errorDescription == "Invalid JWT")
    }
}

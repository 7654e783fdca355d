import Foundation
import Ledger
import PlayModel
import Testing

@testable import PurchaseServer

/// The `googlePlay` settings: the file, the `STOREKEEPER_GOOGLE_PLAY_*` variables, and the
/// problems that stop a server from starting.
@Suite("Google Play configuration")
struct GooglePlayConfigurationTests {
    static let secrets = ServerConfiguration(playerTokenSecret: "player-secret-1", adminKey: "admin-key-0001")

    @Test("a file sets what it names and keeps Google's endpoints for the rest")
    func file() throws {
        let json =
            #"{"googlePlay": {"packageName": "com.example.game", "serviceAccountFile": "/run/secrets/play.json"}}"#
        let configuration = try JSONDecoder().decode(ServerConfiguration.self, from: Data(json.utf8))
        let play = try #require(configuration.googlePlay)
        #expect(play.packageName == "com.example.game")
        #expect(play.serviceAccountFile == "/run/secrets/play.json")
        #expect(play.apiBaseURL == URL(string: "https://androidpublisher.googleapis.com"))
        #expect(play.certsURL == URL(string: "https://www.googleapis.com/oauth2/v3/certs"))
        #expect(play.timeoutSeconds == 10)
        #expect(configuration.description.contains("googlePlay=on(com.example.game)"))
        #expect(ServerConfiguration().googlePlay == nil)
        #expect(ServerConfiguration().description.contains("googlePlay=off"))
    }

    @Test("the package name turns Play on; the other variables change it; bad ones are errors")
    func environment() throws {
        let configured = try Self.secrets.applyingEnvironment([
            "STOREKEEPER_GOOGLE_PLAY_PACKAGE_NAME": "com.example.game",
            "STOREKEEPER_GOOGLE_PLAY_SERVICE_ACCOUNT": #"{"type": "service_account"}"#,
            "STOREKEEPER_GOOGLE_PLAY_API_BASE_URL": "http://127.0.0.1:9000",
            "STOREKEEPER_GOOGLE_PLAY_PUSH_AUDIENCE": "https://game.example.com/v1/notifications/google",
            "STOREKEEPER_GOOGLE_PLAY_PUSH_EMAIL": "pubsub@example.iam.gserviceaccount.com",
            "STOREKEEPER_GOOGLE_PLAY_CERTS_URL": "http://127.0.0.1:9000/certs",
        ])
        let play = try #require(configured.googlePlay)
        #expect(play.packageName == "com.example.game")
        #expect(play.serviceAccount == #"{"type": "service_account"}"#)
        #expect(play.apiBaseURL == URL(string: "http://127.0.0.1:9000"))
        #expect(play.pushAudience == "https://game.example.com/v1/notifications/google")
        #expect(play.pushEmail == "pubsub@example.iam.gserviceaccount.com")
        #expect(play.certsURL == URL(string: "http://127.0.0.1:9000/certs"))

        let file = try configured.applyingEnvironment(["STOREKEEPER_GOOGLE_PLAY_SERVICE_ACCOUNT_FILE": "/k.json"])
        #expect(file.googlePlay?.serviceAccountFile == "/k.json")
        #expect(file.googlePlay?.serviceAccount == nil)

        #expect(try Self.secrets.applyingEnvironment([:]).googlePlay == nil)
        #expect(throws: ConfigurationError.self) {
            try Self.secrets.applyingEnvironment(["STOREKEEPER_GOOGLE_PLAY_SERVICE_ACCOUNT_FILE": "/k.json"])
        }
        #expect(throws: ConfigurationError.self) {
            try configured.applyingEnvironment(["STOREKEEPER_GOOGLE_PLAY_API_BASE_URL": "not a url"])
        }
        let names = ServerConfiguration.environmentVariables.map(\.name)
        for name in [
            "STOREKEEPER_GOOGLE_PLAY_PACKAGE_NAME", "STOREKEEPER_GOOGLE_PLAY_SERVICE_ACCOUNT_FILE",
            "STOREKEEPER_GOOGLE_PLAY_SERVICE_ACCOUNT", "STOREKEEPER_GOOGLE_PLAY_API_BASE_URL",
            "STOREKEEPER_GOOGLE_PLAY_PUSH_AUDIENCE", "STOREKEEPER_GOOGLE_PLAY_PUSH_EMAIL",
            "STOREKEEPER_GOOGLE_PLAY_CERTS_URL",
        ] {
            #expect(names.contains(name), "\(name)")
        }
    }

    @Test("settings Play cannot run with are reported, and a key that cannot be used stops the start")
    func problems() throws {
        var configuration = Self.secrets
        configuration.googlePlay = GooglePlaySettings(
            packageName: "", serviceAccountFile: "/a.json", serviceAccount: "{}", timeoutSeconds: 0)
        let problems = configuration.validationProblems()
        #expect(problems.contains { $0.contains("googlePlay.packageName") })
        #expect(problems.contains { $0.contains("not both") })
        #expect(problems.contains { $0.contains("googlePlay.timeoutSeconds") })

        configuration.googlePlay = GooglePlaySettings(
            packageName: "com.example.game", serviceAccountFile: "/nonexistent/play.json")
        #expect(configuration.validationProblems().isEmpty)
        #expect(configuration.startupProblems().contains { $0.contains("cannot read googlePlay.serviceAccountFile") })

        configuration.googlePlay = GooglePlaySettings(packageName: "com.example.game", serviceAccount: "{\"x\": 1}")
        #expect(configuration.startupProblems().contains { $0.contains("not a service account's JSON key") })
        let notRSA = try Self.serviceAccountJSON(
            privateKey: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        configuration.googlePlay = GooglePlaySettings(packageName: "com.example.game", serviceAccount: notRSA)
        #expect(configuration.startupProblems().contains { $0.contains("not an RSA key") })
        let good = try Self.serviceAccountJSON(privateKey: try ServerFixture.playKeyPEMs.get()[0])
        configuration.googlePlay = GooglePlaySettings(packageName: "com.example.game", serviceAccount: good)
        #expect(configuration.startupProblems().isEmpty)
    }

    static func serviceAccountJSON(privateKey: String) throws -> String {
        let key = ServiceAccountKey(
            projectId: "p", privateKeyId: "k1", privateKey: privateKey, clientEmail: "s@p.iam.gserviceaccount.com",
            clientId: nil, tokenUri: "https://oauth2.googleapis.com/token")
        return String(decoding: try JSONEncoder().encode(key), as: UTF8.self)
    }
}

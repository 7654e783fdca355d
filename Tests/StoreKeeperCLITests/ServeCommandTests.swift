import Foundation
import Testing

/// `storekeeper serve`, `token` and `reconcile` as processes.
struct ServeCommandTests {
    @Test func devServerSellsDeliversStopsGracefullyAndKeepsTheLedger() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = LoopbackPort.unused()
        let token = try await CommandLineRunner.run(["token", "--player", "alice"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)

        let first = try ChildServer.devServer(port: port, dataFolder: directory)
        try await first.waitUntilServing("/healthz")
        let (created, order) = try await first.request(
            "POST", "/v1/orders", token: token, body: #"{"productId":"coins100"}"#)
        #expect(created == 201)
        let appAccountToken = try #require(order["appAccountToken"] as? String)
        let (paid, purchase) = try await first.request(
            "POST", "/emulator/v1/devices/phone/purchases",
            body: #"{"productId":"coins100","appAccountToken":"\#(appAccountToken)"}"#)
        #expect(paid == 200)
        let jws = try #require(purchase["signedTransaction"] as? String)
        let (reported, reply) = try await first.request(
            "POST", "/v1/purchases", token: token, body: #"{"signedTransaction":"\#(jws)"}"#)
        #expect(reported == 200)
        #expect(["delivered", "already_delivered"].contains(reply["status"] as? String))
        #expect(first.terminate() == 0, "SIGTERM stops the server gracefully")

        let second = try ChildServer.devServer(port: port, dataFolder: directory)
        try await second.waitUntilServing("/healthz")
        let (_, wallet) = try await second.request("GET", "/v1/players/me/wallet", token: token)
        #expect((wallet["balances"] as? [String: Any])?["coins"] as? Int == 100)
        let (_, again) = try await second.request(
            "POST", "/v1/purchases", token: token, body: #"{"signedTransaction":"\#(jws)"}"#)
        #expect(again["status"] as? String == "already_delivered")
        #expect(second.terminate() == 0)
    }

    /// The token lasts as long as `serve --dev`'s banner token (7 days) unless told
    /// otherwise, and a negative lifetime is a value (an expired token), not a missing one.
    @Test func tokenLifetimes() async throws {
        func expiry(_ arguments: [String]) async throws -> TimeInterval {
            let output = try await CommandLineRunner.run(["token", "--player", "alice"] + arguments)
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            let payload = try #require(output.stdout.split(separator: ".").dropFirst().first)
            var base64 = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            let claims = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: base64)))
            let exp = try #require((claims as? [String: Any])?["exp"] as? NSNumber)
            return exp.doubleValue - Date().timeIntervalSince1970
        }
        #expect(abs(try await expiry([]) - 7 * 86_400) < 120)
        #expect(abs(try await expiry(["--lifetime", "-60"]) + 60) < 120)
        #expect(abs(try await expiry(["--lifetime=600"]) - 600) < 120)
    }

    @Test func tokenRefusesAPlayerIdTheServerWouldRefuse() async throws {
        for player in ["jose\u{301}", "b\u{200B}ob", "ｂｏｂ", "bob "] {
            let output = try await CommandLineRunner.run(["token", "--player", player])
            #expect(output.status == 2 && output.stdout.isEmpty, "\(player.unicodeScalars.map(\.value))")
            #expect(output.stderr.contains("--player is not a player id"), "\(output.stderr)")
        }
        #expect(try await CommandLineRunner.run(["token", "--player", "jos\u{E9}"]).status == 0)
    }

    @Test func devServerWithABadSubscriptionTimeScaleExitsWithItsErrorNotACrash() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The dev stack has made its HTTP clients before the emulator refuses the value; a
        // client dropped unshut fails a debug build's precondition (a crash, status 132+).
        for scale in ["abc", "2"] {
            let output = try await CommandLineRunner.run(
                ChildServer.devServerArguments(port: LoopbackPort.unused(), dataFolder: directory),
                environment: ["STOREKEEPER_SUBSCRIPTION_TIME_SCALE": scale])
            #expect(output.status == 1 || output.status == 2, "\(scale): \(output.status) \(output.stderr)")
            #expect(output.stderr.lowercased().contains("subscription"), "\(scale): \(output.stderr)")
        }
    }

    @Test func serveWithoutSecretsRefusesToStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-cli-\(UUID().uuidString)")
        let output = try await CommandLineRunner.run(["serve", "--database", "sqlite:\(directory.path)/ledger.sqlite"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("playerTokenSecret"))
        #expect(output.stderr.contains("adminKey"))
        #expect(!FileManager.default.fileExists(atPath: directory.path), "nothing is created before the check")
    }

    @Test func reconcileWithoutTheServerAPIIsAUsageError() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reconcile-\(UUID().uuidString)")
        let config = directory.appendingPathComponent("config.json")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"playerTokenSecret":"0123456789abcdef","adminKey":"0123456789abcdef"}"#.utf8).write(to: config)
        let output = try await CommandLineRunner.run([
            "reconcile", "--config", config.path, "--database", "sqlite:\(directory.path)/ledger.sqlite",
        ])
        #expect(output.status == 2)
        #expect(output.stderr.contains("neither the App Store Server API"))
    }
}

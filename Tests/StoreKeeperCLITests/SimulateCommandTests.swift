import Foundation
import Testing

/// `storekeeper simulate` as a process.
struct SimulateCommandTests {
    @Test func aSmallRunPrintsTheOraclesCountsAsOneJSONObject() async throws {
        let output = try await CommandLineRunner.run([
            "simulate", "--players", "3", "--purchases", "15", "--seed", "7", "--json",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        for key in [
            "charged", "delivered", "lost", "duplicates", "wrongPlayer", "forgedDelivered", "refunded", "reversed",
            "faults", "seed", "elapsedSeconds", "inFlight", "inFlightPurchases", "verdict", "outcomeDigest",
        ] {
            #expect(report[key] != nil, "\(key) is reported")
        }
        #expect(report["seed"] as? Int == 7)
        #expect(report["lost"] as? Int == 0)
        #expect((report["charged"] as? Int ?? 0) > 0)
        #expect(report["faults"] is [String: Any])
        #expect(report["inFlight"] as? Int == 0)
        #expect(report["verdict"] as? String == "pass")
        #expect(report["historyFile"] == nil, "nothing offended, no history asked for")
    }

    @Test func aSerialRunWritesItsHistoryWhereAskedAndNamesIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await CommandLineRunner.run([
            "simulate", "--players", "3", "--purchases", "12", "--seed", "4", "--serial", "--history-dir",
            directory.path, "--json",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(report["serial"] as? Bool == true)
        let file = try #require(report["historyFile"] as? String)
        #expect(file.hasSuffix("simulation-4-offenders.json"))
        let history = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        #expect(history["seed"] as? Int == 4)
        let calls = (report["outcomes"] as? [String: Int] ?? [:]).values.reduce(0, +)
        #expect(calls > 0)
        #expect((history["outcomeSequence"] as? [String])?.count == calls)
        #expect(history["reconcilerPasses"] is [Any])
        #expect(history["offenders"] as? [Any] != nil)
    }

    @Test func severalInstancesOnSQLiteAreAUsageError() async throws {
        let output = try await CommandLineRunner.run(["simulate", "--instances", "3"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("PostgreSQL"))
    }

    @Test func anUnknownFaultIsAUsageError() async throws {
        let output = try await CommandLineRunner.run(["simulate", "--faults", "appKill,meteorStrike"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("meteorStrike"))
    }
}

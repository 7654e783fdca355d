import Foundation
import Testing

/// `storekeeper simulate` as a process.
struct SimulateCommandTests {
    @Test func aSmallRunPrintsTheOraclesCountsAsOneJSONObject() throws {
        let output = try CommandLineRunner.run([
            "simulate", "--players", "3", "--purchases", "15", "--seed", "7", "--json",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        for key in [
            "charged", "delivered", "lost", "duplicates", "wrongPlayer", "forgedDelivered", "refunded", "reversed",
            "faults", "seed", "elapsedSeconds",
        ] {
            #expect(report[key] != nil, "\(key) is reported")
        }
        #expect(report["seed"] as? Int == 7)
        #expect(report["lost"] as? Int == 0)
        #expect((report["charged"] as? Int ?? 0) > 0)
        #expect(report["faults"] is [String: Any])
    }

    @Test func anUnknownFaultIsAUsageError() throws {
        let output = try CommandLineRunner.run(["simulate", "--faults", "appKill,meteorStrike"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("meteorStrike"))
    }
}

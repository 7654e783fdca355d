import Foundation

/// The results of `storekeeper bench` and the comparisons drawn from them: every case
/// against the P-256 floor of the same run, the warm Apple JWS case against Apple's own
/// library, and the production receipt against the floor and its goal.
struct BenchmarkReport {
    /// The cases a comparison is drawn from.
    enum Role {
        case floor, appleJWSWarm, productionReceipt
    }

    /// A speed measured elsewhere, quoted for comparison.
    struct Reference: Encodable {
        var operationsPerSecond: Double
        var milliseconds: Double
        var description: String
    }

    /// Apple's app-store-server-library-swift (`SignedDataVerifier`), verifying and
    /// decoding a transaction: 240 verifications/s, measured earlier on this machine.
    static let appleLibraryReference = Reference(
        operationsPerSecond: 240,
        milliseconds: 4.2,
        description: "Apple's app-store-server-library-swift at 240 verifications/s (4.2 ms each), "
            + "a reference figure measured earlier on this machine, not in this run"
    )
    /// The warm Apple JWS case's goal, as a multiple of ``appleLibraryReference``.
    static let appleJWSGoal = 25.0
    /// The production receipt's goal, in verifications per second on one core.
    static let productionReceiptGoal = 12_000.0

    private var results: [BenchmarkRunner.Result] = []
    private var roles: [Role: Int] = [:]

    /// Adds a case's result (`nil`: filtered out), in the role it plays in a comparison.
    mutating func add(_ result: BenchmarkRunner.Result?, as role: Role? = nil) {
        guard let result else { return }
        if let role { roles[role] = results.count }
        results.append(result)
    }

    private func result(_ role: Role) -> BenchmarkRunner.Result? {
        roles[role].map { results[$0] }
    }

    /// The comparisons, for the JSON form.
    private struct Comparisons: Encodable {
        var floorOperationsPerSecond: Double?
        var appleLibraryReference = BenchmarkReport.appleLibraryReference
        var appleJWSWarmOperationsPerSecond: Double?
        var appleJWSWarmVersusAppleLibrary: Double?
        var appleJWSWarmGoalVersusAppleLibrary = BenchmarkReport.appleJWSGoal
        var productionReceiptOperationsPerSecond: Double?
        var productionReceiptVersusFloorOperationsPerSecond: Double?
        var productionReceiptGoalOperationsPerSecond = BenchmarkReport.productionReceiptGoal
    }

    private var comparisons: Comparisons {
        let floor = result(.floor)?.operationsPerSecond
        let apple = result(.appleJWSWarm)?.operationsPerSecond
        let receipt = result(.productionReceipt)?.operationsPerSecond
        return Comparisons(
            floorOperationsPerSecond: floor,
            appleJWSWarmOperationsPerSecond: apple,
            appleJWSWarmVersusAppleLibrary: apple.map { $0 / Self.appleLibraryReference.operationsPerSecond },
            productionReceiptOperationsPerSecond: receipt,
            productionReceiptVersusFloorOperationsPerSecond: receipt.flatMap { receipt in floor.map { receipt / $0 } }
        )
    }

    /// The results with their ratio to the floor filled in.
    private var comparedResults: [BenchmarkRunner.Result] {
        guard let floor = result(.floor) else { return results }
        return results.map { result in
            var result = result
            result.p50VersusFloor = result.p50Microseconds / floor.p50Microseconds
            return result
        }
    }

    /// Prints a table and the comparisons, or one JSON object.
    func print(json: Bool) {
        if json {
            printJSONObject()
        } else {
            printTable()
        }
    }

    private struct JSONForm: Encodable {
        var results: [BenchmarkRunner.Result]
        var comparisons: Comparisons
    }

    private func printJSONObject() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let form = JSONForm(results: comparedResults, comparisons: comparisons)
        Swift.print(String(decoding: (try? encoder.encode(form)) ?? Data(), as: UTF8.self))
    }

    private func printTable() {
        let rows = comparedResults
        let width = max(44, (rows.map(\.name.count).max() ?? 0) + 2)
        Swift.print(
            "case".padding(toLength: width, withPad: " ", startingAt: 0)
                + "     ops/s   mean µs    p50 µs    p99 µs  p50/floor")
        for result in rows {
            let numbers = [
                result.operationsPerSecond, result.meanMicroseconds, result.p50Microseconds, result.p99Microseconds,
            ]
            .map { String(format: "%10.1f", $0) }.joined()
            let ratio = result.p50VersusFloor.map { String(format: "%11.2f", $0) } ?? ""
            Swift.print(result.name.padding(toLength: width, withPad: " ", startingAt: 0) + numbers + ratio)
        }
        let comparisons = comparisons
        if let apple = comparisons.appleJWSWarmOperationsPerSecond,
            let ratio = comparisons.appleJWSWarmVersusAppleLibrary
        {
            Swift.print(
                "\nApple JWS, warm chain cache (verify + decode): \(Self.format(apple)) ops/s = "
                    + String(format: "%.1fx", ratio) + " \(Self.appleLibraryReference.description). "
                    + "Goal: >= \(Self.format(Self.appleJWSGoal))x.")
        }
        if let receipt = comparisons.productionReceiptOperationsPerSecond {
            var line = "\nProduction receipt (verify + decode, chain cache hit): \(Self.format(receipt)) ops/s"
            if let floor = comparisons.floorOperationsPerSecond,
                let ratio = comparisons.productionReceiptVersusFloorOperationsPerSecond
            {
                line +=
                    " = " + String(format: "%.2fx", ratio)
                    + " the P-256 floor's \(Self.format(floor)) ops/s in this run"
            }
            Swift.print(line + ". Goal: >= \(Self.format(Self.productionReceiptGoal)) ops/s on one core.")
        }
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.0f", value)
    }
}

import OrderSimulation
import Testing

@Suite struct FaultRatesTests {
    @Test func allNoneAndListsParse() throws {
        #expect(try FaultRates(parsing: "all") == .all)
        #expect(FaultKind.allCases.allSatisfy { FaultRates.all[$0] == $0.defaultRate && $0.defaultRate > 0 })
        #expect(try FaultRates(parsing: "none") == .none)
        let some = try FaultRates(parsing: "appKill, networkDrop=0.25")
        #expect(some[.appKill] == FaultKind.appKill.defaultRate)
        #expect(some[.networkDrop] == 0.25)
        #expect(some[.refund] == 0)
    }

    @Test func unknownKindsAndBadRatesAreRefusedByName() {
        #expect(throws: SimulationError.self) { try FaultRates(parsing: "appKill,meteorStrike") }
        #expect(throws: SimulationError.self) { try FaultRates(parsing: "networkDrop=2") }
        #expect(throws: SimulationError.self) { try FaultRates(parsing: "networkDrop=often") }
        do {
            _ = try FaultRates(parsing: "meteorStrike")
        } catch {
            #expect(error.description.contains("meteorStrike"))
            #expect(error.description.contains("replayedReport"), "the message lists the kinds")
        }
    }

    @Test func anItemWithoutANameIsAnUnknownFault() {
        for list in ["=", "appKill,=", "==", "=0.5", " = "] {
            #expect(throws: SimulationError.self, "\(list)") { try FaultRates(parsing: list) }
        }
    }
}

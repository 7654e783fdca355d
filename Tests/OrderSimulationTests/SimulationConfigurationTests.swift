import OrderSimulation
import Testing

@Suite struct SimulationConfigurationTests {
    @Test(arguments: [Double.infinity, .nan, -1, 1e300])
    func aReconcilerIntervalThatIsNoWaitIsAProblem(seconds: Double) {
        let problems = SimulationConfiguration(reconcilerIntervalSeconds: seconds).validationProblems()
        #expect(problems.count == 1)
        #expect(problems.first?.contains("reconciler interval") == true)
    }

    @Test(arguments: [0, 10, SimulationConfiguration.longestReconcilerInterval])
    func aReconcilerIntervalUpToAYearIsFine(seconds: Double) {
        #expect(SimulationConfiguration(reconcilerIntervalSeconds: seconds).validationProblems().isEmpty)
    }
}

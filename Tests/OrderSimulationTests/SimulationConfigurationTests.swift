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

    @Test func androidPlayersAreAFifthOfThePlayersByDefault() {
        #expect(SimulationConfiguration(players: 20).androidPlayers == 4)
        #expect(SimulationConfiguration(players: 4).androidPlayers == 0)
        #expect(SimulationConfiguration(players: 20, androidPlayers: 20).validationProblems().isEmpty)
    }

    @Test(arguments: [-1, 21]) func androidPlayersOutsideThePlayersAreAProblem(android: Int) {
        let problems = SimulationConfiguration(players: 20, subscriptionPlayers: 0, androidPlayers: android)
            .validationProblems()
        #expect(problems.count == 1)
        #expect(problems.first?.contains("android players") == true)
    }
}

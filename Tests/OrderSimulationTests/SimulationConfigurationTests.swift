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

    @Test func androidPlayersAreAFifthOfThePlayersWithoutSubscriptionPlayers() {
        #expect(SimulationConfiguration(players: 20, subscriptionPlayers: 0).androidPlayers == 4)
        #expect(SimulationConfiguration(players: 20, subscriptionPlayers: 2).androidPlayers == 0)
        #expect(SimulationConfiguration(players: 20, subscriptionPlayers: 0).validationProblems().isEmpty)
    }

    @Test(arguments: [-1, 21]) func androidPlayersOutsideThePlayersAreAProblem(android: Int) {
        let problems = SimulationConfiguration(players: 20, subscriptionPlayers: 0, androidPlayers: android)
            .validationProblems()
        #expect(problems.count == 1)
        #expect(problems.first?.contains("android players") == true)
    }

    /// The subscription players' month of a second would make Google's three days a tenth of
    /// a second.
    @Test func androidAndSubscriptionPlayersDoNotShareARun() {
        let problems = SimulationConfiguration(players: 20, subscriptionPlayers: 1, androidPlayers: 2)
            .validationProblems()
        #expect(problems.count == 1)
        #expect(problems.first?.contains("three days") == true)
    }
}

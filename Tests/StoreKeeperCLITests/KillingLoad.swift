/// Every app buys `purchases` products at once (coins100, coins500 and potion in turn)
/// while `victim` is SIGKILLed and restarted `kills` times, spread evenly over the
/// deliveries the players saw acknowledged, each kill at a random moment up to 100 ms
/// after its mark.
func buyWhileKilling(
    _ apps: [PlayerApp], purchases: Int, victim: KillableDevServer, kills: Int, truth: PurchaseGroundTruth
) async throws {
    let total = apps.count * purchases
    try await withThrowingTaskGroup(of: Void.self) { group in
        for app in apps {
            group.addTask { try await app.buy(purchases, productIds: ["coins100", "coins500", "potion"]) }
        }
        group.addTask {
            for round in 1...kills {
                try await truth.waitForAcknowledged(round * total / (kills + 1))
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...100)))
                await victim.kill()
                await truth.recordKill()
                try await victim.start()
            }
        }
        try await group.waitForAll()
    }
}

/// What the players of a process-kill run know for certain, kept outside the server: which
/// player each order's `appAccountToken` belongs to, and which deliveries the server
/// acknowledged to whom.
actor PurchaseGroundTruth {
    /// The player who created each order, by the order's `appAccountToken`.
    private(set) var payers: [String: String] = [:]
    /// The player each acknowledged (200) transaction was delivered to.
    private(set) var acknowledged: [String: String] = [:]
    /// Requests that got no answer: refused, reset or timed out while the server was down.
    private(set) var unanswered = 0
    /// What another instance answered to a second report of each acknowledged transaction.
    private(set) var duplicateAnswers: [String: String] = [:]
    /// How many times the victim process has been killed so far (counted once it is dead).
    private(set) var kills = 0

    func recordOrder(appAccountToken: String, player: String) {
        payers[appAccountToken] = player
    }

    func recordAcknowledged(transactionId: String, player: String) {
        acknowledged[transactionId] = player
    }

    func recordUnanswered() {
        unanswered += 1
    }

    func recordKill() {
        kills += 1
    }

    func recordDuplicate(transactionId: String, status: String?) {
        duplicateAnswers[transactionId] = status ?? "no status"
    }

    /// Waits until at least `count` deliveries have been acknowledged.
    func waitForAcknowledged(_ count: Int) async throws {
        while acknowledged.count < count { try await Task.sleep(for: .milliseconds(10)) }
    }
}

import Ledger

extension LedgerStore {
    /// Every transaction delivered to `players`, with the net of its ledger entries: the
    /// server's side of ``IntegrityOracle/judge(charges:ledger:)``.
    public func deliveries(players: some Sequence<String>) async throws -> [LedgerDelivery] {
        var deliveries: [LedgerDelivery] = []
        for player in Set(players).sorted() {
            var net: [String: Grants] = [:]
            for entry in try await ledgerEntries(playerId: player) {
                guard let transactionId = entry.transactionId else { continue }
                net[transactionId, default: [:]][entry.item, default: 0] += entry.amount
            }
            for purchase in try await purchases(playerId: player) {
                deliveries.append(
                    LedgerDelivery(
                        transactionId: purchase.transactionId, playerId: player, status: purchase.status,
                        net: net[purchase.transactionId] ?? [:]))
            }
        }
        return deliveries
    }
}

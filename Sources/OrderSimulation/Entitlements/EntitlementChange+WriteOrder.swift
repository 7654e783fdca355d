import Foundation

extension EntitlementChange {
    /// `history` with each chain's changes in the order the ledger wrote them, and each
    /// change's ``at`` the earliest moment it can have been seen.
    ///
    /// A change's ``at`` is when its database transaction began, not when it committed.
    /// Changes of one chain are written one at a time, under the chain's lock, so their
    /// ``sequence`` (the history event's id) is their write order; a transaction that began
    /// first can still take the lock second. A change written after another cannot have
    /// become visible before that one began, so its ``at`` is raised to the latest ``at``
    /// written before it. A chain with a change that has no ``sequence`` keeps the order
    /// of ``at`` (stable) and its times.
    public static func inWriteOrder(_ history: [EntitlementChange]) -> [EntitlementChange] {
        var ordered: [EntitlementChange] = []
        let chains = Dictionary(grouping: history, by: \.originalTransactionId)
        for chain in chains.keys.sorted() {
            guard let changes = chains[chain] else { continue }
            let sequences = changes.compactMap(\.sequence)
            guard sequences.count == changes.count else {
                ordered += changes.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
                    .map(\.element)
                continue
            }
            var latest = Date.distantPast
            for var change in changes.sorted(by: { ($0.sequence ?? 0) < ($1.sequence ?? 0) }) {
                latest = max(latest, change.at)
                change.at = latest
                ordered.append(change)
            }
        }
        return ordered
    }
}

/// Purchases or subscriptions by purchase token, remembering the tokens set since the state
/// was last saved: what the next append to the state's log writes (``PlayStateFile``), so
/// that a change costs what it changed, not what the emulator holds.
struct PlayRecords<Record: Codable & Equatable & Sendable>: Sendable, Sequence {
    private(set) var byToken: [String: Record]
    /// The tokens set since ``forgetChanges()``.
    private(set) var changedTokens: Set<String> = []

    init(_ byToken: [String: Record] = [:]) {
        self.byToken = byToken
    }

    /// The record of `token`; setting one (to anything) marks the token changed.
    subscript(token: String) -> Record? {
        get { byToken[token] }
        set {
            byToken[token] = newValue
            changedTokens.insert(token)
        }
    }

    var values: Dictionary<String, Record>.Values { byToken.values }
    var keys: Dictionary<String, Record>.Keys { byToken.keys }

    func makeIterator() -> Dictionary<String, Record>.Iterator {
        byToken.makeIterator()
    }

    /// The records set since ``forgetChanges()``, by token.
    var changed: [Record] {
        changedTokens.sorted().compactMap { byToken[$0] }
    }

    /// Marks every record saved.
    mutating func forgetChanges() {
        changedTokens.removeAll(keepingCapacity: true)
    }
}

/// Bounds how many password checks (bcrypt, a large fraction of a second of a core each) run at
/// once: a burst of sign-ins, which all pass the per-address limit before the first failure
/// is recorded, would otherwise queue without end on Dispatch's workers and hold every core.
/// A sign-in that finds no slot free is refused (`sign_in_busy`, 429) without a check.
actor PasswordCheckSlots {
    /// The most checks at once.
    nonisolated let limit: Int
    private var running = 0

    /// Slots for `limit` checks at once (at least one).
    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    /// Takes a slot; `false` when all are taken.
    func enter() -> Bool {
        guard running < limit else { return false }
        running += 1
        return true
    }

    /// Gives back a slot taken with ``enter()``.
    func leave() {
        running = max(running - 1, 0)
    }
}

/// Who made an admin-API change to a player's wallet, and why: the reason (required, 1 to
/// 1,024 characters) and the actor (up to 128; `admin` when absent or empty), checked the
/// same way for every route that records them (manual grants, spends).
struct AdminAttribution {
    /// Why, as given.
    var reason: String
    /// Who: the actor given, or `admin`.
    var actor: String

    /// Checks `reason` and `actor`; `invalid_request` naming the field otherwise.
    init(reason: String, actor: String?) throws(ServerError) {
        try RequestField.check(reason, "reason", length: 1...1_024)
        try RequestField.check(actor, "actor", length: 0...128)
        self.reason = reason
        self.actor = actor.flatMap { $0.isEmpty ? nil : $0 } ?? "admin"
    }
}

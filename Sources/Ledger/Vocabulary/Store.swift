/// The store that sold a purchase. A purchase's identity is the store together with the
/// store's own id for it: each store's ids are a namespace of their own, in purchases,
/// entitlements, refund notices, history and outbox keys.
public enum Store: String, Codable, Sendable, CaseIterable {
    /// Apple's App Store: ids are Apple's transaction ids.
    case appStore = "app_store"
    /// Google Play: ids are Google's order ids (a purchase token names the chain).
    case googlePlay = "google_play"
}

extension Store {
    /// `id` as one key across every store, where a key has no column for the store (the
    /// outbox's idempotency keys, which integrators hold, and PostgreSQL's transaction
    /// lock): an App Store id unchanged, as the ledger has always keyed it, and any other
    /// store's prefixed with the store's name and a colon (`google_play:GPA.1234-…`), which
    /// no App Store id (digits) can be.
    public func key(_ id: String) -> String {
        self == .appStore ? id : "\(rawValue):\(id)"
    }
}

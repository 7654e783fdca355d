/// Where an order is in its life.
public enum OrderStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Created for a player; no transaction has been delivered against it yet.
    case created
    /// A delivered transaction fulfilled it (see ``Order/fulfilledBy``).
    case fulfilled
}

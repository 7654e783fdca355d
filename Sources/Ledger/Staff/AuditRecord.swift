import Foundation

/// One entry of the console's append-only audit log: who did or saw what, when, and from
/// where. Nothing ever updates or deletes one.
public struct AuditRecord: Sendable, Hashable {
    /// The record's id once stored (increasing); `nil` before it is appended.
    public var id: Int64?
    /// The staff account (or the name tried, for a failed sign-in).
    public var actor: String
    /// What was done: a stable string such as `sign_in`, `sign_in_failed`, `view_player`,
    /// `search`, `deliver_owed`, `manual_grant` (see the console's documentation).
    public var action: String
    /// What it was done to (a player id, a transaction id, an order id, a query), if anything.
    public var target: String?
    /// Details as flat strings.
    public var detail: [String: String]
    /// The client address.
    public var address: String
    /// When (server time).
    public var createdAt: Date

    /// Creates a record value.
    public init(
        id: Int64? = nil,
        actor: String,
        action: String,
        target: String? = nil,
        detail: [String: String] = [:],
        address: String,
        createdAt: Date
    ) {
        self.id = id
        self.actor = actor
        self.action = action
        self.target = target
        self.detail = detail
        self.address = address
        self.createdAt = createdAt
    }
}

import Foundation

/// The ledger's entitlements: one row per original transaction, naming the player who
/// holds what it unlocks and until when (``LedgerStore`` refines it).
///
/// Every change (a delivery's insert or update, ``updateEntitlement(_:)``,
/// ``transferEntitlement(store:originalTransactionId:to:reason:actor:)``) is one database
/// transaction that also appends an ``HistoryEventType/entitlementChanged`` (or
/// ``HistoryEventType/entitlementTransferred``) event and enqueues an
/// ``EntitlementMessage``. A change reads the row under a lock (PostgreSQL:
/// `SELECT … FOR UPDATE`; SQLite: its single writer), so concurrent changes of one
/// entitlement apply one after the other.
public protocol EntitlementStore: Sendable {
    /// The player's entitlements, by entitlement id, then oldest first.
    func entitlements(playerId: String) async throws -> [Entitlement]

    /// The entitlement of this original transaction.
    func entitlement(store: Store, originalTransactionId: String) async throws -> Entitlement?

    /// Applies `update` when its ``EntitlementUpdate/signedAt`` is not older than the
    /// recorded data, it is not about a transaction bought before the one backing the
    /// entitlement (both delivered), and it changes something;
    /// ``EntitlementChangeResult/unchanged(_:)`` (nothing written) otherwise.
    func updateEntitlement(_ update: EntitlementUpdate) async throws -> EntitlementChangeResult

    /// Makes `playerId` the holder, with an audited ``HistoryEventType/entitlementTransferred``
    /// event on both players' timelines and a message for each;
    /// ``EntitlementTransferResult/alreadyHeld(_:)`` (nothing written) when the player holds it.
    func transferEntitlement(
        store: Store, originalTransactionId: String, to playerId: String, reason: String, actor: String?
    )
        async throws -> EntitlementTransferResult

    /// Auto-renewable entitlements whose `until` is before `date`, whose state still
    /// entitles, and whose recheck is due by `date` (see
    /// ``postponeSubscriptionCheck(store:originalTransactionId:now:)``), oldest `until` first (the
    /// reconciler's work list).
    func lapsedSubscriptions(before date: Date, limit: Int) async throws -> [Entitlement]

    /// Keeps a lapsed subscription the reconciler could not settle (Apple failed to
    /// answer, or answered without changing it) off ``lapsedSubscriptions(before:limit:)``
    /// for a while: a minute after the first such check, doubling with each one in a row,
    /// at most a day; any change of the entitlement starts over. So a chain Apple never
    /// answers for cannot hold the head of the list. When it may be checked again, or `nil`
    /// (nothing written) for an unknown original transaction or one no longer lapsed at
    /// `now` (a renewal committed since the reconciler looked).
    @discardableResult
    func postponeSubscriptionCheck(store: Store, originalTransactionId: String, now: Date) async throws -> Date?

    /// For each original transaction of `productIds` that backs no entitlement (delivered
    /// before the ledger kept entitlements), its latest purchase; after `cursor` (the last
    /// purchase of the previous page) in (purchase date, transaction id) order, at most
    /// `limit`. Empty `productIds` finds nothing.
    func purchasesWithoutEntitlement(productIds: Set<String>, after cursor: Purchase?, limit: Int) async throws
        -> [Purchase]

    /// Creates the entitlement of `purchase`'s original transaction from `grant` for the
    /// purchase's player, with its event and message (reason `backfill`), unless the
    /// original transaction has one (then nothing is written and the answer is `nil`).
    func backfillEntitlement(_ grant: EntitlementGrant, of purchase: Purchase) async throws -> Entitlement?
}

/// Errors the ledger reports itself (database errors are passed through, PostgreSQL's as
/// ``database(message:sqlState:)``), and the faults of its storage, classified in one place
/// for both databases as ``storageUnavailable(_:detail:)``.
public enum LedgerError: Error, Hashable, CustomStringConvertible {
    /// A store URL that is not `sqlite:PATH`, `sqlite::memory:` or `postgres://…`.
    case invalidStoreURL(String, reason: String)
    /// ``LedgerStore/deliver(_:)`` named an order that does not exist.
    case unknownOrder(orderId: String)
    /// ``LedgerStore/deliver(_:)`` named an order that belongs to another player.
    case orderBelongsToOtherPlayer(orderId: String, playerId: String)
    /// ``LedgerStore/createOrder(_:)`` with an order id or app account token already used.
    case duplicateOrder(orderId: String)
    /// ``LedgerStore/deliver(_:)`` of a transaction whose latest recorded refund-state
    /// notification is a REFUND or REVOKE (nothing written): the device still holds the
    /// transaction as signed before the refund.
    case transactionRevoked(transactionId: String)
    /// ``LedgerStore/deliver(_:)`` bound by a chain holder (``Delivery/boundByHolder``) that
    /// no longer holds the chain's entitlement (nothing written): bind again and retry.
    case chainHolderChanged(originalTransactionId: String)
    /// Another store's purchase or entitlement already holds this id. The ledger keys each
    /// store's ids apart, but while the previous release's statements may still run, an id
    /// stays unique across stores too (``LedgerSchema/storeIdentity``); nothing was written.
    case transactionIdOfOtherStore(store: Store, transactionId: String)
    /// ``StaffStore/createStaff(_:)`` with a name already taken.
    case duplicateStaff(name: String)
    /// Grants the operation cannot apply (empty item name, zero or wrong-signed amount).
    case invalidGrants(String)
    /// A spend the rules refuse (nothing to spend, an amount below 1, a key that is not an
    /// identifier, no reason).
    case invalidSpend(String)
    /// A spend would take `item` below zero: the player holds `balance`, the spend asked for
    /// `requested`. Nothing was debited.
    case insufficientBalance(item: String, balance: Int64, requested: Int64)
    /// The player used this idempotency key for a different spend (other items or reason).
    case idempotencyKeyReused(key: String)
    /// A stored row the ledger cannot read (a column missing or of the wrong type).
    case corruptRow(String)
    /// The PostgreSQL server refused a statement.
    case database(message: String, sqlState: String?)
    /// ``LedgerStore/migrate()`` on a ledger whose schema `version` is newer than the newest
    /// this build knows (`newestKnown`): a newer `storekeeper` upgraded it. Nothing was
    /// changed; run that release or a newer one.
    case schemaNewerThanBuild(version: Int64, newestKnown: Int64)
    /// The database lacks something a migration needs (SQLite's FTS5 `trigram` tokenizer,
    /// PostgreSQL's `pg_trgm` or the right to create it); `detail` says what and how to
    /// provide it. Nothing of that migration was applied.
    case databaseFeatureMissing(String)
    /// The database cannot serve now through no fault of the operation (a full disk, an I/O
    /// error, a read-only or unopenable file, an unreachable server); nothing was written,
    /// and the same operation succeeds once operators fixed the fault. `detail` is the
    /// database's code and its generic text, for logs: never a path or a statement.
    case storageUnavailable(StorageFault, detail: String)

    /// The storage fault this error is, if it is one.
    public var storageFault: StorageFault? {
        if case .storageUnavailable(let fault, _) = self { return fault }
        return nil
    }

    /// Whether a statement refused with this SQLSTATE may succeed when run again
    /// (serialization failure, deadlock).
    static func isTransient(_ sqlState: String?) -> Bool {
        sqlState == "40001" || sqlState == "40P01"
    }

    /// A one-line explanation for logs and operators.
    public var description: String {
        switch self {
        case .invalidStoreURL(let url, let reason):
            "invalid store URL \"\(url)\": \(reason) (expected sqlite:PATH, sqlite::memory: "
                + "or postgres://user:password@host:port/database)"
        case .unknownOrder(let orderId): "unknown order \(orderId)"
        case .orderBelongsToOtherPlayer(let orderId, let playerId):
            "order \(orderId) does not belong to player \(playerId)"
        case .duplicateOrder(let orderId): "order \(orderId) or its app account token already exists"
        case .transactionRevoked(let transactionId):
            "Apple notified a refund or revocation of transaction \(transactionId) before it was delivered"
        case .transactionIdOfOtherStore(let store, let transactionId):
            "id \(transactionId) of \(store.rawValue) is already recorded for another store"
        case .chainHolderChanged(let originalTransactionId):
            "the holder of the entitlement of \(originalTransactionId) changed while the delivery was bound"
        case .duplicateStaff(let name): "a staff account named \(name) already exists"
        case .invalidGrants(let reason): "invalid grants: \(reason)"
        case .invalidSpend(let reason): "invalid spend: \(reason)"
        case .insufficientBalance(let item, let balance, let requested):
            "insufficient balance of \(item): \(balance) held, \(requested) asked"
        case .idempotencyKeyReused(let key): "the idempotency key \(key) was used for a different spend"
        case .corruptRow(let what): "unreadable row: \(what)"
        case .database(let message, let sqlState):
            "database error\(sqlState.map { " \($0)" } ?? ""): \(message)"
        case .schemaNewerThanBuild(let version, let newestKnown):
            "the ledger's schema is version \(version), newer than this storekeeper knows (\(newestKnown)): "
                + "a newer release upgraded it; run that release or a newer one (docs/deploy.md, \"Upgrades\")"
        case .databaseFeatureMissing(let detail): "the database lacks what the ledger's schema needs: \(detail)"
        case .storageUnavailable(let fault, let detail): "storage unavailable (\(fault.rawValue)): \(detail)"
        }
    }
}

/// Durable memory of every order: written before each side effect it guards, read at
/// start-up to resume. ``FilePurchaseJournal`` on disk; on Apple platforms
/// `PurchaseSDKStoreKit` mirrors it to the Keychain so it survives a reinstall.
public protocol PurchaseJournal: Sendable {
    /// Every record it holds (a journal may forget closed orders, see ``JournalRetention``),
    /// and what could not be read.
    func load() async throws -> JournalContents

    /// Stores `record` (replacing the record with its id) durably before returning.
    func write(_ record: PurchaseRecord) async throws
}

/// What a journal held when loaded.
public struct JournalContents: Hashable, Sendable {
    /// The records, oldest first.
    public var records: [PurchaseRecord]
    /// Entries that failed their checksum or did not decode: reported, never silently dropped.
    public var damage: [JournalDamage]

    /// Creates contents.
    public init(records: [PurchaseRecord], damage: [JournalDamage] = []) {
        self.records = records
        self.damage = damage
    }
}

/// An entry of the journal that could not be read.
public struct JournalDamage: Hashable, Sendable {
    /// The line, from 1.
    public var line: Int
    /// Why it was refused (`checksum_mismatch`, `malformed_entry`, `undecodable_record`).
    public var reason: String
    /// The record id, when it could still be read from the damaged text.
    public var recordId: String?
    /// The damaged text, kept for support.
    public var text: String

    /// Creates a damage report.
    public init(line: Int, reason: String, recordId: String?, text: String) {
        self.line = line
        self.reason = reason
        self.recordId = recordId
        self.text = text
    }
}

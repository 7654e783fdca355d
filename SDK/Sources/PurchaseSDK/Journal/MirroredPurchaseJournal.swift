/// A journal kept in two places: the app's own journal and a mirror that outlives the app
/// (the Keychain on a phone). After a reinstall the app's journal is empty and the records
/// come back from the mirror, so the pipeline still resumes them.
public actor MirroredPurchaseJournal: PurchaseJournal {
    private let primary: any PurchaseJournal
    private let mirror: any PurchaseJournal

    /// Mirrors `primary` to `mirror`.
    public init(primary: any PurchaseJournal, mirror: any PurchaseJournal) {
        self.primary = primary
        self.mirror = mirror
    }

    /// The primary's records, updated where the mirror has a newer version, and the open
    /// orders only the mirror still has; what the mirror restores is written back to the
    /// primary. A closed order only the mirror has stays there: there is nothing to resume,
    /// and the primary may have forgotten it on purpose (``JournalRetention``).
    public func load() async throws -> JournalContents {
        var contents = try await primary.load()
        let mirrored = try await mirror.load()
        contents.damage += mirrored.damage
        var byId = Dictionary(contents.records.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        for record in mirrored.records {
            let known = byId[record.id]
            guard (known?.updatedAt ?? .distantPast) < record.updatedAt, known != nil || !record.isClosed else {
                continue
            }
            byId[record.id] = record
            try await primary.write(record)
        }
        contents.records = byId.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        return contents
    }

    /// Writes the primary first, then the mirror.
    public func write(_ record: PurchaseRecord) async throws {
        try await primary.write(record)
        try await mirror.write(record)
    }
}

/// Triggers a bulk load (``BulkLoading``) suspends while it loads, and the statement that does
/// their work for the loaded rows at its end (``LedgerSchema/bulkLoadRebuilds``).
struct BulkLoadRebuild: Sendable {
    /// A trigger, by its table and name.
    struct Trigger: Sendable {
        var table: String
        var name: String
    }

    /// The table the triggers keep.
    var table: String
    /// The triggers suspended while rows are loaded.
    var triggers: [Trigger]
    /// Run once after the load, the dropped indexes built again, before the triggers are back.
    var statement: String

    /// The rebuilds that apply to a load of `tables`: those with a trigger on one of them.
    static func of(_ tables: [String]) -> [BulkLoadRebuild] {
        LedgerSchema.bulkLoadRebuilds.filter { $0.triggers.contains { tables.contains($0.table) } }
    }
}

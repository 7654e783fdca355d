import Foundation

extension SQLLedgerStore {
    public func setCheckpoint(_ name: String, value: String) async throws {
        try await writeAutocommit(.execute(LedgerSQL.setCheckpoint(name: name, value: value, at: now)))
    }

    public func checkpoint(_ name: String) async throws -> String? {
        try await read(.first(LedgerSQL.checkpoint(name: name), { try $0.requiredText("value") }))
    }
}

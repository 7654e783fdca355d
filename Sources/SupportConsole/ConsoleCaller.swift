import Foundation
import Ledger

/// Who is asking, for a signed-in page or action: the session, the language of the answer
/// and the client's address (the connection's peer, `unknown` when the context has none).
struct ConsoleCaller: Sendable {
    /// The session the request carried (already checked and marked used).
    let session: StaffSession
    /// The language to answer in.
    let language: ConsoleLanguage
    /// The client's address, for the audit log.
    let address: String
    /// Where ``audit(action:target:detail:)`` writes.
    let auditLog: any StaffStore

    /// The staff account's name.
    var name: String { session.staffName }
    /// The staff account's role.
    var role: StaffRole { session.role }

    /// Appends a record of what the caller saw or did to the audit log (actor: the
    /// caller's name; address: the caller's; now).
    func audit(action: String, target: String? = nil, detail: [String: String] = [:]) async throws {
        try await auditLog.appendAudit(
            AuditRecord(
                actor: name, action: action, target: target, detail: detail, address: address,
                createdAt: Date()))
    }
}

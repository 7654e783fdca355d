import ArgumentParser
import Foundation
import Ledger
import SupportConsole

/// `storekeeper staff`: the support console's accounts, from the command line (the first
/// admin is made here). Every change is written to the console's audit log with actor
/// `cli` and address `local`.
///
/// Exit status: 0 on success, 2 for usage errors (a bad name or password), 1 when the
/// account is missing (or, for `add`, exists already).
struct StaffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "staff",
        abstract: "Manage the support console's staff accounts.",
        subcommands: [
            StaffAddCommand.self, StaffListCommand.self, StaffDisableCommand.self, StaffResetPasswordCommand.self,
        ]
    )

    /// The audit actor of changes made here.
    static let auditActor = "cli"
    /// The audit address of changes made here.
    static let auditAddress = "local"

    /// Refuses a name the console does not accept (``StaffNames``): 1 to 64 ASCII letters,
    /// digits, `.`, `_` or `-`.
    static func checkName(_ name: String) throws {
        if let problem = StaffNames.problem(with: name) { throw ValidationError(problem) }
    }

    /// The password: one line of standard input with `fromStdin`, else a generated one.
    static func password(fromStdin: Bool) throws -> (password: String, generated: Bool) {
        guard fromStdin else { return (StaffCredentials.generatePassword(), true) }
        var line = readLine(strippingNewline: true) ?? ""
        if line.hasSuffix("\r") { line.removeLast() }
        if let problem = StaffCredentials.problem(with: line) { throw ValidationError(problem) }
        return (line, false)
    }

    /// Prints the new credentials: the password when generated, the TOTP secret and its
    /// `otpauth:` URL when set.
    static func printCredentials(name: String, password: String, generated: Bool, totpSecret: String?) {
        if generated { print("password: \(password)") }
        if let totpSecret {
            print("totp secret: \(totpSecret)")
            print("otpauth: \(StaffCredentials.authenticatorURL(secret: totpSecret, account: name))")
        }
    }

    /// Appends an audit record of a change made here.
    static func audit(_ store: any LedgerStore, action: String, name: String, detail: [String: String] = [:])
        async throws
    {
        try await store.appendAudit(
            AuditRecord(
                actor: auditActor, action: action, target: name, detail: detail, address: auditAddress,
                createdAt: Date()))
    }

    /// Runs `body` with the ledger open, closing it afterwards whatever happens.
    static func withStore<T>(_ options: ServerOptions, _ body: (any LedgerStore) async throws -> T) async throws -> T {
        let store = try await options.openStore()
        do {
            let result = try await body(store)
            try await store.close()
            return result
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// Reports a missing account on standard error and exits with status 1.
    static func missing(_ name: String) -> ExitCode {
        FileHandle.standardError.write(Data("no staff account \(name)\n".utf8))
        return ExitCode.rejected
    }
}

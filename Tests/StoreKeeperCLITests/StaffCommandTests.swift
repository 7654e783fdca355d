import Foundation
import Ledger
import SupportConsole
import Testing

/// `storekeeper staff add|list|disable|reset-password` on a SQLite ledger: accounts made
/// with bcrypt hashes and optional TOTP, usage errors exit 2, missing accounts exit 1, and
/// every change is in the audit log as actor `cli` from `local`.
struct StaffCommandTests {
    /// A fresh ledger file; removed at the end.
    private final class TestLedger: Sendable {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("staff-\(UUID().uuidString)")
        var url: String { "sqlite:" + directory.appendingPathComponent("ledger.sqlite").path }

        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func run(_ arguments: [String], input: String = "") async throws -> CommandLineRunner.Output {
            try await CommandLineRunner.run(["staff"] + arguments + ["--database", url], input: Data(input.utf8))
        }

        func read<T>(_ body: (any LedgerStore) async throws -> T) async throws -> T {
            let store = try makeLedgerStore(url: url)
            try await store.migrate()
            let result = try await body(store)
            try await store.close()
            return result
        }
    }

    @Test func addPrintsAGeneratedPasswordThatVerifiesAndAudits() async throws {
        let ledger = try TestLedger()
        let output = try await ledger.run(["add", "alice", "--role", "agent"])
        #expect(output.status == 0, "\(output.stderr)")
        let line = try #require(output.stdout.split(separator: "\n").first { $0.hasPrefix("password: ") })
        let password = String(line.dropFirst("password: ".count))
        let account = try #require(try await ledger.read { try await $0.staff(name: "alice") })
        #expect(account.role == .agent)
        #expect(account.totpSecret == nil)
        #expect(StaffCredentials.verify(password, hash: account.passwordHash))
        #expect(!output.stdout.contains("totp"))
        let audit = try await ledger.read { try await $0.auditRecords(beforeId: nil, limit: 10, actor: "cli") }
        #expect(audit.map(\.action) == ["staff_add"])
        #expect(audit.first?.target == "alice")
        #expect(audit.first?.address == "local")
        #expect(audit.first?.detail["role"] == "agent")
    }

    @Test func addWithTOTPAndAPasswordFromStandardInput() async throws {
        let ledger = try TestLedger()
        let output = try await ledger.run(
            ["add", "ops.admin-1", "--role", "admin", "--totp", "--password-stdin"], input: "correct horse battery\n")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(!output.stdout.contains("password:"))
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let secret = try #require(lines.first { $0.hasPrefix("totp secret: ") }).dropFirst("totp secret: ".count)
        #expect(lines.contains { $0.hasPrefix("otpauth://") || $0.hasPrefix("otpauth: otpauth://totp/") })
        let account = try #require(try await ledger.read { try await $0.staff(name: "ops.admin-1") })
        #expect(account.role == .admin)
        #expect(account.totpSecret == String(secret))
        #expect(StaffCredentials.verify("correct horse battery", hash: account.passwordHash))
        #expect(StaffCredentials.verifyTOTP(StaffCredentials.totpCode(secret: String(secret)), secret: String(secret)))
    }

    @Test(arguments: [
        ["add", "bad name", "--role", "agent"], ["add", "", "--role", "agent"],
        ["add", String(repeating: "a", count: 65), "--role", "agent"], ["add", "bob", "--role", "boss"],
        ["add", "bob"], ["disable", "bad/name"], ["reset-password", "x", "--totp", "--no-totp"],
    ])
    func usageErrorsExitTwoAndChangeNothing(arguments: [String]) async throws {
        let ledger = try TestLedger()
        let output = try await ledger.run(arguments)
        #expect(output.status == 2, "\(arguments): \(output.stdout) \(output.stderr)")
        #expect(try await ledger.read { try await $0.staffAccounts() }.isEmpty)
    }

    @Test func aShortPasswordFromStandardInputIsAUsageError() async throws {
        let ledger = try TestLedger()
        let output = try await ledger.run(["add", "bob", "--role", "viewer", "--password-stdin"], input: "short\n")
        #expect(output.status == 2)
        #expect(output.stderr.contains("at least"))
        #expect(try await ledger.read { try await $0.staff(name: "bob") } == nil)
    }

    @Test func aDuplicateNameAndMissingAccountsExitOne() async throws {
        let ledger = try TestLedger()
        #expect(try await ledger.run(["add", "bob", "--role", "viewer"]).status == 0)
        let duplicate = try await ledger.run(["add", "bob", "--role", "admin"])
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr.contains("exists"))
        #expect(try await ledger.run(["disable", "nobody"]).status == 1)
        #expect(try await ledger.run(["reset-password", "nobody"]).status == 1)
    }

    @Test func listDisableAndResetPassword() async throws {
        let ledger = try TestLedger()
        #expect(try await ledger.run(["add", "alice", "--role", "agent", "--totp"]).status == 0)
        #expect(try await ledger.run(["add", "bob", "--role", "viewer"]).status == 0)
        #expect(try await ledger.run(["disable", "bob"]).status == 0)
        let list = try await ledger.run(["list"])
        #expect(list.status == 0)
        let rows = list.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.first == ["NAME", "ROLE", "2FA", "DISABLED"])
        #expect(rows.contains(["alice", "agent", "totp", "no"]))
        #expect(rows.contains(["bob", "viewer", "no", "yes"]))

        let secretBefore = try await ledger.read { try await $0.staff(name: "alice")?.totpSecret }
        let kept = try await ledger.run(["reset-password", "alice"])
        #expect(kept.status == 0)
        #expect(kept.stdout.contains("password: "))
        #expect(try await ledger.read { try await $0.staff(name: "alice")?.totpSecret } == secretBefore)
        let renewed = try await ledger.run(["reset-password", "alice", "--totp"])
        #expect(renewed.stdout.contains("totp secret: "))
        let secretAfter = try await ledger.read { try await $0.staff(name: "alice")?.totpSecret }
        #expect(secretAfter != nil && secretAfter != secretBefore)
        #expect(try await ledger.run(["reset-password", "alice", "--no-totp"]).status == 0)
        #expect(try await ledger.read { try await $0.staff(name: "alice")?.totpSecret } == nil)

        // Reset enables a disabled account again.
        #expect(try await ledger.run(["reset-password", "bob"]).status == 0)
        #expect(try await ledger.read { try await $0.staff(name: "bob")?.disabledAt } == nil)

        let actions = try await ledger.read { try await $0.auditRecords(beforeId: nil, limit: 50, actor: "cli") }
        #expect(
            actions.map(\.action).reversed() == [
                "staff_add", "staff_add", "staff_disable", "staff_reset_password", "staff_reset_password",
                "staff_reset_password", "staff_reset_password",
            ])
        #expect(actions.allSatisfy { $0.address == "local" })
    }
}

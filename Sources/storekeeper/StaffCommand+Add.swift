import ArgumentParser
import Foundation
import Ledger
import SupportConsole

/// `storekeeper staff add NAME --role viewer|agent|admin [--totp] [--password-stdin]`.
struct StaffAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a staff account and print its password (and TOTP secret with --totp).")

    @OptionGroup var target: StaffTarget

    @Option(help: "viewer (reads), agent (also delivers and grants within the limit) or admin (everything).")
    var role: String

    @Flag(help: "Require a TOTP code (authenticator app) at sign-in; prints the secret and its otpauth URL.")
    var totp = false

    @OptionGroup var source: StaffPasswordSource

    func validate() throws {
        guard StaffRole(rawValue: role) != nil else { throw ValidationError("--role is viewer, agent or admin") }
    }

    func run() async throws {
        let name = target.name
        let (password, generated) = try source.password()
        let totpSecret = totp ? StaffCredentials.generateTOTPSecret() : nil
        let now = Date()
        let role = StaffRole(rawValue: role) ?? .viewer
        let account = StaffAccount(
            name: name, role: role, passwordHash: StaffCredentials.hash(password), totpSecret: totpSecret,
            createdAt: now, passwordChangedAt: now)
        try await StaffCommand.withStore(target.options) { store in
            do {
                try await store.createStaff(account)
            } catch LedgerError.duplicateStaff {
                FileHandle.standardError.write(Data("staff account \(name) exists already\n".utf8))
                throw ExitCode.rejected
            }
            try await StaffCommand.audit(
                store, action: "staff_add", name: name,
                detail: ["role": role.rawValue, "totp": totp ? "true" : "false"])
        }
        print("added \(name) (\(role.rawValue))")
        StaffCommand.printCredentials(name: name, password: password, generated: generated, totpSecret: totpSecret)
    }
}

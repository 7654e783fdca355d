import ArgumentParser
import Foundation
import Ledger
import SupportConsole

/// `storekeeper staff reset-password NAME [--totp|--no-totp] [--password-stdin]`: a new
/// password (and, with `--totp`, a new second factor; `--no-totp` removes it; otherwise it
/// stays), the lock cleared, the account enabled again and its sessions ended.
struct StaffResetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password",
        abstract: "Set a new password (printed), clear the lock, enable the account and end its sessions.")

    @OptionGroup var target: StaffTarget

    @Flag(
        inversion: .prefixedNo, exclusivity: .exclusive,
        help: "--totp sets a new TOTP secret (printed); --no-totp removes the second factor; neither keeps it.")
    var totp: Bool?

    @OptionGroup var source: StaffPasswordSource

    func run() async throws {
        let (name, totp) = (target.name, totp)
        let (password, generated) = try source.password()
        let hash = StaffCredentials.hash(password)
        let newSecret = totp == true ? StaffCredentials.generateTOTPSecret() : nil
        try await StaffCommand.withStore(target.options) { store in
            guard let account = try await store.staff(name: name) else { throw StaffCommand.missing(name) }
            let secret = totp == nil ? account.totpSecret : newSecret
            guard try await store.resetStaffPassword(name: name, passwordHash: hash, totpSecret: secret) else {
                throw StaffCommand.missing(name)
            }
            try await StaffCommand.audit(
                store, action: "staff_reset_password", name: name,
                detail: ["totp": totp.map { $0 ? "new" : "removed" } ?? "kept"])
        }
        print("reset the password of \(name)")
        StaffCommand.printCredentials(name: name, password: password, generated: generated, totpSecret: newSecret)
    }
}

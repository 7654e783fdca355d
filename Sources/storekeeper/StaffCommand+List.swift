import ArgumentParser
import Foundation
import Ledger

/// `storekeeper staff list`: every account with its role, second factor, and whether it
/// is disabled.
struct StaffListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the staff accounts.")

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let accounts = try await StaffCommand.withStore(options) { try await $0.staffAccounts() }
        var rows = [["NAME", "ROLE", "2FA", "DISABLED"]]
        for account in accounts {
            rows.append([
                account.name, account.role.rawValue, account.totpSecret == nil ? "no" : "totp",
                account.disabledAt == nil ? "no" : "yes",
            ])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            print(cells.joined(separator: "  "))
        }
    }
}

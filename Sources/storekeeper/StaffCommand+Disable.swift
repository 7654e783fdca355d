import ArgumentParser
import Foundation
import Ledger

/// `storekeeper staff disable NAME`: the account can no longer sign in and its sessions end.
struct StaffDisableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Disable a staff account and end its sessions.")

    @OptionGroup var target: StaffTarget

    func run() async throws {
        let name = target.name
        try await StaffCommand.withStore(target.options) { store in
            guard try await store.disableStaff(name: name) else { throw StaffCommand.missing(name) }
            try await StaffCommand.audit(store, action: "staff_disable", name: name)
        }
        print("disabled \(name)")
    }
}

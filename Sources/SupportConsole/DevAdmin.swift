import Foundation
import Ledger
import PurchaseServer

/// The `dev-admin` account `storekeeper serve --dev` signs in with.
public enum DevAdmin {
    /// The account's name.
    public static let name = "dev-admin"

    /// Creates `dev-admin` (admin, no second factor) with a new generated password, or, when
    /// it exists, sets a new generated password (which also enables and unlocks it and ends
    /// its sessions); returns the password, hashed at bcrypt cost `cost`
    /// (``ConsoleSettings/passwordHashCost``). Audited with actor `dev`.
    public static func prepare(store: any StaffStore, cost: Int = ConsoleSettings().passwordHashCost) async throws
        -> String
    {
        let password = StaffCredentials.generatePassword()
        let hash = await StaffCredentials.hashInBackground(password, cost: cost)
        let now = Date()
        let action: String
        if try await store.resetStaffPassword(name: name, passwordHash: hash, totpSecret: nil) {
            action = "staff_reset_password"
        } else {
            try await store.createStaff(
                StaffAccount(name: name, role: .admin, passwordHash: hash, createdAt: now, passwordChangedAt: now))
            action = "staff_add"
        }
        try await store.appendAudit(
            AuditRecord(
                actor: "dev", action: action, target: name, detail: ["role": StaffRole.admin.rawValue],
                address: "local", createdAt: now))
        return password
    }
}

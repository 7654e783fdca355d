import Foundation
import Ledger

extension ConsoleCore {
    /// Decides a sign-in: the account when name, password and (when the account has one)
    /// second factor are right; else the refusal. Refused without looking at the password:
    /// an address with too many recent failures (`rate_limited`), more sign-ins at once than
    /// ``PasswordCheckSlots`` allows (`sign_in_busy`), a locked account
    /// (`account_locked`). Failures are written to the audit log as `sign_in_failed` (actor:
    /// the name tried), which is what the per-address limit counts.
    func authenticate(name: String, password: String, code: String, address: String) async throws
        -> Result<StaffAccount, ConsoleError>
    {
        let now = Date()
        let recentFailures = try await store.auditCount(
            action: "sign_in_failed", address: address, since: now.addingTimeInterval(-settings.signInWindowSeconds))
        if recentFailures >= settings.signInFailuresPerAddress {
            return .failure(ConsoleError(code: "rate_limited", status: .tooManyRequests))
        }
        let invalid = ConsoleError(code: "invalid_credentials", status: .unauthorized)
        let locked = ConsoleError(code: "account_locked", status: .forbidden)
        let busy = ConsoleError(code: "sign_in_busy", status: .tooManyRequests)
        // A name no account can have (control characters, too long…) is not looked up.
        let account = StaffNames.problem(with: name) == nil ? try await store.staff(name: name) : nil
        guard let account else {
            let dummyHash = await DummyPasswordHashes.shared.hash(cost: settings.passwordHashCost)
            guard await checkPassword(password, hash: dummyHash) != nil else { return .failure(busy) }
            try await recordFailure(name: name, address: address, reason: "unknown_name", at: now)
            return .failure(invalid)
        }
        if account.disabledAt != nil {
            let dummyHash = await DummyPasswordHashes.shared.hash(cost: settings.passwordHashCost)
            guard await checkPassword(password, hash: dummyHash) != nil else { return .failure(busy) }
            try await recordFailure(name: name, address: address, reason: "disabled", at: now)
            return .failure(invalid)
        }
        if let lockedUntil = account.lockedUntil, lockedUntil > now {
            try await recordFailure(name: name, address: address, reason: "locked", at: now)
            return .failure(locked)
        }
        guard let matches = await checkPassword(password, hash: account.passwordHash) else { return .failure(busy) }
        guard matches else {
            let after = try await store.recordSignInFailure(
                name: name, lockAfter: settings.lockAfterFailures, lockFor: settings.lockSeconds)
            try await recordFailure(name: name, address: address, reason: "password", at: now)
            if let lockedUntil = after?.lockedUntil, lockedUntil > now { return .failure(locked) }
            return .failure(invalid)
        }
        if let secret = account.totpSecret {
            guard code.contains(where: { !$0.isWhitespace }) else {
                return .failure(ConsoleError(code: "code_required", status: .unauthorized))
            }
            guard StaffCredentials.verifyTOTP(code, secret: secret, at: now) else {
                let after = try await store.recordSignInFailure(
                    name: name, lockAfter: settings.lockAfterFailures, lockFor: settings.lockSeconds)
                try await recordFailure(name: name, address: address, reason: "code", at: now)
                if let lockedUntil = after?.lockedUntil, lockedUntil > now { return .failure(locked) }
                return .failure(ConsoleError(code: "invalid_code", status: .unauthorized))
            }
        }
        try await store.recordSignInSuccess(name: account.name)
        return .success(account)
    }

    /// Whether `password` matches `hash`, checked on a Dispatch worker; `nil` when as many
    /// checks as ``PasswordCheckSlots`` allows are under way.
    private func checkPassword(_ password: String, hash: String) async -> Bool? {
        guard await passwordChecks.enter() else {
            logger.warning("console sign-in refused: too many password checks at once")
            return nil
        }
        let matches = await StaffCredentials.verifyInBackground(password, hash: hash)
        await passwordChecks.leave()
        return matches
    }

    private func recordFailure(name: String, address: String, reason: String, at date: Date) async throws {
        try await store.appendAudit(
            AuditRecord(
                actor: ConsoleText.printable(String(name.prefix(64))), action: "sign_in_failed",
                detail: ["reason": reason],
                address: address, createdAt: date))
        logger.notice("console sign-in refused", metadata: ["reason": "\(reason)", "address": "\(address)"])
    }
}

import Foundation
import Ledger

extension ConsoleCore {
    /// The audit action of a failed sign-in (actor: the name tried), which the limits count.
    static let signInFailed = "sign_in_failed"

    /// Decides a sign-in at `now` by the rule of docs/SECURITY.md ("Staff sign-in"): the
    /// account when name, password and (when the account has one) second factor are right;
    /// else the refusal. No number of failures locks an account.
    ///
    /// Refused with `rate_limited` (429) before the name is looked up or the password
    /// checked: an address with ``ConsoleSettings/signInFailuresPerAddress`` failures within
    /// the window; and a name whose failures from this address make it wait
    /// (``SignInDelay``), with `Retry-After`. A waiting name's attempt that carries a second
    /// factor code is checked all the same while ``SignInDelay/checksSecondFactor(after:)``
    /// allows: the right password and code of an account with a second factor get in, and
    /// anything else is a failure answered like a wait. More sign-ins at once than
    /// ``PasswordCheckSlots`` allows: `sign_in_busy`. A name that exists and one that does
    /// not get the same answers after the same work (an unknown or disabled name's password
    /// is checked against a dummy hash). Failures are written to the audit log as
    /// `sign_in_failed` (actor: the name tried), which is what the limits count.
    func authenticate(name: String, password: String, code: String, address: String, at now: Date) async throws
        -> Result<StaffAccount, ConsoleError>
    {
        let since = now.addingTimeInterval(-settings.signInWindowSeconds)
        let fromAddress = try await store.auditCount(action: Self.signInFailed, address: address, since: since)
        if fromAddress >= settings.signInFailuresPerAddress { return .failure(.rateLimited(retryAfter: nil)) }
        let actor = ConsoleText.printable(String(name.prefix(64)))
        let delay = SignInDelay(settings: settings)
        let failures = try await store.auditTally(
            action: Self.signInFailed, actor: actor, address: address, since: since)
        let waitsUntil = delay.nextAttempt(after: failures).flatMap { $0 > now ? $0 : nil }
        let hasCode = code.contains { !$0.isWhitespace }
        if let waitsUntil, !(hasCode && delay.checksSecondFactor(after: failures)) {
            return .failure(.rateLimited(retryAfter: Self.seconds(from: now, to: waitsUntil)))
        }
        let refusal: ConsoleError
        let reason: String?
        switch try await verify(name: name, password: password, code: code, at: now) {
        case .accepted(let account) where waitsUntil == nil || account.totpSecret != nil:
            return .success(account)
        case .accepted:
            // The right password alone, while the name waits: only a second factor gets in then.
            (refusal, reason) = (ConsoleError(code: "invalid_credentials", status: .unauthorized), "no_second_factor")
        case .refused(let error, let failure):
            (refusal, reason) = (error, failure)
        }
        guard let reason else { return .failure(refusal) }
        try await recordFailure(actor: actor, address: address, reason: reason, at: now)
        guard waitsUntil != nil, let next = delay.nextAttempt(after: AuditTally(count: failures.count + 1, latest: now))
        else { return .failure(refusal) }
        return .failure(.rateLimited(retryAfter: Self.seconds(from: now, to: next)))
    }

    /// What checking a name, password and code found.
    private enum Verdict {
        /// All right: this account signs in.
        case accepted(StaffAccount)
        /// Refused with `error`; `failure` is the reason a failed sign-in is recorded with,
        /// `nil` when the attempt is no failure (no code given yet, no check slot free).
        case refused(ConsoleError, failure: String?)
    }

    /// Looks the name up and checks the password (against a dummy hash when no enabled
    /// account has the name) and the account's second factor.
    private func verify(name: String, password: String, code: String, at now: Date) async throws -> Verdict {
        let invalid = ConsoleError(code: "invalid_credentials", status: .unauthorized)
        let busy = Verdict.refused(ConsoleError(code: "sign_in_busy", status: .tooManyRequests), failure: nil)
        // A name no account can have (control characters, too long…) is not looked up.
        let found = StaffNames.problem(with: name) == nil ? try await store.staff(name: name) : nil
        guard let account = found, account.disabledAt == nil else {
            let dummyHash = await DummyPasswordHashes.shared.hash(cost: settings.passwordHashCost)
            guard await checkPassword(password, hash: dummyHash) != nil else { return busy }
            return .refused(invalid, failure: found == nil ? "unknown_name" : "disabled")
        }
        guard let matches = await checkPassword(password, hash: account.passwordHash) else { return busy }
        guard matches else { return .refused(invalid, failure: "password") }
        if let secret = account.totpSecret {
            guard code.contains(where: { !$0.isWhitespace }) else {
                return .refused(ConsoleError(code: "code_required", status: .unauthorized), failure: nil)
            }
            guard StaffCredentials.verifyTOTP(code, secret: secret, at: now) else {
                return .refused(ConsoleError(code: "invalid_code", status: .unauthorized), failure: "code")
            }
        }
        return .accepted(account)
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

    private func recordFailure(actor: String, address: String, reason: String, at date: Date) async throws {
        try await store.appendAudit(
            AuditRecord(
                actor: actor, action: Self.signInFailed, detail: ["reason": reason], address: address, createdAt: date))
        logger.notice("console sign-in refused", metadata: ["reason": "\(reason)", "address": "\(address)"])
    }

    /// Whole seconds from `now` to `date`, rounded up, at least 1 (`Retry-After`).
    private static func seconds(from now: Date, to date: Date) -> Int {
        max(1, Int(date.timeIntervalSince(now).rounded(.up)))
    }
}

import Foundation
import HummingbirdBcrypt
import HummingbirdOTP

/// Passwords and second factors of support console accounts: bcrypt hashes, generated
/// passwords and TOTP (RFC 6238: six digits, 30-second steps, SHA-1, as authenticator apps
/// expect).
public enum StaffCredentials {
    /// The bcrypt cost of new hashes unless one is given (`ConsoleSettings.passwordHashCost`
    /// defaults to the same): 2^12 rounds, on which `staff add` spends 0.4 s of one core in
    /// a debug build here.
    public static let bcryptCost: UInt8 = 12

    /// The shortest password accepted.
    public static let minimumPasswordLength = 12

    /// The longest password accepted (bcrypt reads 72 bytes at most).
    public static let maximumPasswordBytes = 72

    /// Letters and digits a generated password or TOTP secret is drawn from, without look-alikes.
    private static let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    /// The bcrypt hash of `password`.
    public static func hash(_ password: String) -> String {
        hash(password, cost: bcryptCost)
    }

    /// The bcrypt hash of `password` at `cost` (tests make accounts cheaply; a hash carries
    /// its cost, so ``verify(_:hash:)`` reads any).
    static func hash(_ password: String, cost: UInt8) -> String {
        Bcrypt.hash(password, cost: cost)
    }

    /// Whether `password` matches `hash`.
    public static func verify(_ password: String, hash: String) -> Bool {
        guard password.utf8.count <= maximumPasswordBytes else { return false }
        return Bcrypt.verify(password, hash: hash)
    }

    /// ``hash(_:)`` on a Dispatch worker thread: a bcrypt hash holds a core for a large
    /// fraction of a second, which must not stall the cooperative threads every request of the
    /// server shares.
    public static func hashInBackground(_ password: String, cost: Int = Int(bcryptCost)) async -> String {
        let cost = UInt8(clamping: min(max(cost, 4), 31))
        return await inBackground { hash(password, cost: cost) }
    }

    /// ``verify(_:hash:)`` on a Dispatch worker thread (see ``hashInBackground(_:)``).
    public static func verifyInBackground(_ password: String, hash: String) async -> Bool {
        await inBackground { verify(password, hash: hash) }
    }

    private static func inBackground<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }

    /// Why `password` cannot be used, or `nil` when it can.
    public static func problem(with password: String) -> String? {
        if password.count < minimumPasswordLength {
            return "a password needs at least \(minimumPasswordLength) characters"
        }
        if password.utf8.count > maximumPasswordBytes {
            return "a password may have at most \(maximumPasswordBytes) bytes"
        }
        return nil
    }

    /// A random password of `length` letters and digits (about 5.8 bits each).
    public static func generatePassword(length: Int = 20) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// A new TOTP secret (20 random letters and digits; the authenticator app is given its
    /// base32 form through ``authenticatorURL(secret:account:)``).
    public static func generateTOTPSecret() -> String {
        generatePassword(length: 20)
    }

    /// The `otpauth://` URL an authenticator app scans or imports for `secret`.
    public static func authenticatorURL(secret: String, account: String) -> String {
        TOTP(secret: secret).createAuthenticatorURL(label: "StoreKeeper:\(account)", issuer: "StoreKeeper")
    }

    /// Whether `code` is the TOTP code of `secret` at `date`, or of the step before or
    /// after it (clocks differ by some seconds).
    public static func verifyTOTP(_ code: String, secret: String, at date: Date = Date()) -> Bool {
        let digits = code.filter { !$0.isWhitespace }
        guard digits.count == 6, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else { return false }
        return [-30.0, 0, 30].contains { totpCode(secret: secret, at: date.addingTimeInterval($0)) == digits }
    }

    /// The current TOTP code of `secret`, six digits (what an authenticator app shows).
    public static func totpCode(secret: String, at date: Date = Date()) -> String {
        let value = TOTP(secret: secret).compute(date: date)
        let text = String(value)
        return String(repeating: "0", count: max(0, 6 - text.count)) + text
    }
}

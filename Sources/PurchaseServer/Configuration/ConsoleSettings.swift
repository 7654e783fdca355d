import Foundation
import Ledger

/// How the support console (`/console`) signs staff in and what it lets them do.
public struct ConsoleSettings: Codable, Hashable, Sendable {
    /// Whether `storekeeper serve` serves the console; on by default.
    public var enabled: Bool
    /// The most an agent may grant of one item in one manual grant (either sign); `0`
    /// forbids agents to grant. Admins are limited by ``adminGrantLimit``.
    public var agentGrantLimit: Int64
    /// The most an admin may grant of one item in one manual grant; `nil`: no limit.
    public var adminGrantLimit: Int64?
    /// A session unused this long (seconds) ends.
    public var idleTimeoutSeconds: Double
    /// A session ends this long (seconds) after sign-in, however it is used.
    public var sessionLifetimeSeconds: Double
    /// Failed sign-ins of one name from one address within ``signInWindowSeconds`` that
    /// cost nothing; after them each attempt of that name from that address waits a delay
    /// that starts at 1 second and doubles with each further failure, up to ``lockSeconds``.
    /// No number of failures locks an account (docs/SECURITY.md, "Staff sign-in"; the key
    /// is named after the lock it once set).
    public var lockAfterFailures: Int
    /// The longest delay (seconds) between attempts of one name from one address (see
    /// ``lockAfterFailures``).
    public var lockSeconds: Double
    /// Failed sign-ins one address may make within ``signInWindowSeconds`` before every
    /// sign-in from it is refused for the rest of the window.
    public var signInFailuresPerAddress: Int
    /// The window of ``signInFailuresPerAddress`` and ``lockAfterFailures``, in seconds.
    public var signInWindowSeconds: Double
    /// How long (seconds) a transaction the server learned of waits for the player's own
    /// report before the owed queue lists it (the app usually reports within seconds).
    public var owedAfterSeconds: Double
    /// Whether session cookies carry `Secure` (HTTPS only); `nil`: on, except in
    /// `serve --dev`, which serves plain HTTP on loopback.
    public var secureCookies: Bool?
    /// The bcrypt cost (log2 of the rounds) of the passwords the console sets and of the
    /// check an unknown name gets, so that it takes as long as a wrong password; 12 by
    /// default. Below 10 only for tests.
    public var passwordHashCost: Int

    /// Creates settings with safe defaults: agents grant at most 1,000 of an item, admins
    /// without limit; 30 minutes idle, 12 hours at most; 5 free failures of a name per
    /// address, then delays doubling from 1 second up to 15 minutes; 20 failures per address
    /// per 15 minutes; owed after 10 minutes.
    public init(
        enabled: Bool = true,
        agentGrantLimit: Int64 = 1_000,
        adminGrantLimit: Int64? = nil,
        idleTimeoutSeconds: Double = 1_800,
        sessionLifetimeSeconds: Double = 43_200,
        lockAfterFailures: Int = 5,
        lockSeconds: Double = 900,
        signInFailuresPerAddress: Int = 20,
        signInWindowSeconds: Double = 900,
        owedAfterSeconds: Double = 600,
        secureCookies: Bool? = nil,
        passwordHashCost: Int = 12
    ) {
        self.enabled = enabled
        self.agentGrantLimit = agentGrantLimit
        self.adminGrantLimit = adminGrantLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.sessionLifetimeSeconds = sessionLifetimeSeconds
        self.lockAfterFailures = lockAfterFailures
        self.lockSeconds = lockSeconds
        self.signInFailuresPerAddress = signInFailuresPerAddress
        self.signInWindowSeconds = signInWindowSeconds
        self.owedAfterSeconds = owedAfterSeconds
        self.secureCookies = secureCookies
        self.passwordHashCost = passwordHashCost
    }

    /// Decodes settings; absent keys keep the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ConsoleSettings()
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? defaults.enabled
        agentGrantLimit =
            try container.decodeIfPresent(Int64.self, forKey: .agentGrantLimit) ?? defaults.agentGrantLimit
        adminGrantLimit = try container.decodeIfPresent(Int64.self, forKey: .adminGrantLimit)
        idleTimeoutSeconds =
            try container.decodeIfPresent(Double.self, forKey: .idleTimeoutSeconds) ?? defaults.idleTimeoutSeconds
        sessionLifetimeSeconds =
            try container.decodeIfPresent(Double.self, forKey: .sessionLifetimeSeconds)
            ?? defaults.sessionLifetimeSeconds
        lockAfterFailures =
            try container.decodeIfPresent(Int.self, forKey: .lockAfterFailures) ?? defaults.lockAfterFailures
        lockSeconds = try container.decodeIfPresent(Double.self, forKey: .lockSeconds) ?? defaults.lockSeconds
        signInFailuresPerAddress =
            try container.decodeIfPresent(Int.self, forKey: .signInFailuresPerAddress)
            ?? defaults.signInFailuresPerAddress
        signInWindowSeconds =
            try container.decodeIfPresent(Double.self, forKey: .signInWindowSeconds) ?? defaults.signInWindowSeconds
        owedAfterSeconds =
            try container.decodeIfPresent(Double.self, forKey: .owedAfterSeconds) ?? defaults.owedAfterSeconds
        secureCookies = try container.decodeIfPresent(Bool.self, forKey: .secureCookies)
        passwordHashCost =
            try container.decodeIfPresent(Int.self, forKey: .passwordHashCost) ?? defaults.passwordHashCost
    }

    /// The most `role` may grant of one item in one manual grant: `0` for viewers, `nil`
    /// for no limit.
    public func grantLimit(for role: StaffRole) -> Int64? {
        switch role {
        case .viewer: 0
        case .agent: agentGrantLimit
        case .admin: adminGrantLimit
        }
    }

    /// Problems that stop the server from starting, each a sentence.
    var validationProblems: [String] {
        var problems: [String] = []
        let day = 86_400.0
        if agentGrantLimit < 0 { problems.append("console.agentGrantLimit must be 0 or more") }
        if let adminGrantLimit, adminGrantLimit < 0 { problems.append("console.adminGrantLimit must be 0 or more") }
        if !(idleTimeoutSeconds >= 60 && idleTimeoutSeconds <= day) {
            problems.append("console.idleTimeoutSeconds must be from 60 to 86400")
        }
        if !(sessionLifetimeSeconds >= idleTimeoutSeconds && sessionLifetimeSeconds <= 30 * day) {
            problems.append("console.sessionLifetimeSeconds must be from idleTimeoutSeconds to 2592000 (30 days)")
        }
        if !(1...100).contains(lockAfterFailures) { problems.append("console.lockAfterFailures must be from 1 to 100") }
        if !(lockSeconds >= 1 && lockSeconds <= day) { problems.append("console.lockSeconds must be from 1 to 86400") }
        if !(1...10_000).contains(signInFailuresPerAddress) {
            problems.append("console.signInFailuresPerAddress must be from 1 to 10000")
        }
        if !(signInWindowSeconds >= 1 && signInWindowSeconds <= day) {
            problems.append("console.signInWindowSeconds must be from 1 to 86400")
        }
        if !(owedAfterSeconds >= 0 && owedAfterSeconds <= 30 * day) {
            problems.append("console.owedAfterSeconds must be from 0 to 2592000 (30 days)")
        }
        if !(4...31).contains(passwordHashCost) {
            problems.append("console.passwordHashCost must be from 4 to 31 (bcrypt's range; 10 or more outside tests)")
        }
        return problems
    }
}

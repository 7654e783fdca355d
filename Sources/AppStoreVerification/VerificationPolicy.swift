import AppStoreModel

/// What the caller expects of data that verified: which app it is for and which
/// environments are acceptable. A `nil` expectation is not checked.
public struct VerificationPolicy: Hashable, Sendable {
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The environments accepted; `nil` accepts any.
    public var environments: Set<AppStoreEnvironment>?
    /// The app's Apple id (notifications and app transactions carry it).
    public var appAppleId: Int64?

    /// Creates a policy; every expectation defaults to unchecked.
    public init(bundleId: String? = nil, environments: Set<AppStoreEnvironment>? = nil, appAppleId: Int64? = nil) {
        self.bundleId = bundleId
        self.environments = environments
        self.appAppleId = appAppleId
    }

    /// Checks the claims of verified data against the expectations.
    ///
    /// A claim the data does not make (renewal info carries no bundle id) is not checked.
    public func check(_ claims: PayloadClaims) throws(VerificationError) {
        if let expected = bundleId, let actual = claims.bundleId, actual != expected {
            throw VerificationError(.bundleIdMismatch, "signed for bundle \(actual), expected \(expected)")
        }
        if let accepted = environments, let actual = claims.environment, !accepted.contains(actual) {
            let names = accepted.map(\.rawValue).sorted().joined(separator: ", ")
            throw VerificationError(.environmentMismatch, "signed in environment \(actual), accepted: \(names)")
        }
        if let expected = appAppleId, let actual = claims.appAppleId, actual != expected {
            throw VerificationError(.appAppleIdMismatch, "signed for app Apple id \(actual), expected \(expected)")
        }
    }
}

/// The facts in a piece of signed data that a ``VerificationPolicy`` checks.
public struct PayloadClaims: Hashable, Sendable {
    /// The bundle identifier the data names.
    public var bundleId: String?
    /// The environment the data names.
    public var environment: AppStoreEnvironment?
    /// The app Apple id the data names.
    public var appAppleId: Int64?

    /// Creates claims from their parts.
    public init(bundleId: String? = nil, environment: AppStoreEnvironment? = nil, appAppleId: Int64? = nil) {
        self.bundleId = bundleId
        self.environment = environment
        self.appAppleId = appAppleId
    }
}

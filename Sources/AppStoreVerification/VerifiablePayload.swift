import AppStoreModel
import Foundation

/// A JWS payload type that ``JWSVerifier`` can verify: it says when it was signed and
/// what it claims about the app.
public protocol VerifiablePayload: Decodable, Sendable {
    /// When Apple signed the data; the chain is checked at this time. `nil` means now.
    var signingDate: Date? { get }
    /// The app facts the ``VerificationPolicy`` checks.
    var claims: PayloadClaims { get }
}

extension JWSTransactionDecodedPayload: VerifiablePayload {
    public var signingDate: Date? { signedDateValue }
    public var claims: PayloadClaims { PayloadClaims(bundleId: bundleId, environment: environment) }
}

extension JWSRenewalInfoDecodedPayload: VerifiablePayload {
    public var signingDate: Date? { signedDateValue }
    public var claims: PayloadClaims { PayloadClaims(environment: environment) }
}

extension JWSAppTransactionDecodedPayload: VerifiablePayload {
    public var signingDate: Date? { signedDateValue }
    public var claims: PayloadClaims {
        PayloadClaims(bundleId: bundleId, environment: receiptType, appAppleId: appAppleId)
    }
}

extension ResponseBodyV2DecodedPayload: VerifiablePayload {
    public var signingDate: Date? { signedDateValue }
    public var claims: PayloadClaims {
        PayloadClaims(bundleId: data?.bundleId, environment: data?.environment, appAppleId: data?.appAppleId)
    }
}

/// The claims any App Store JWS payload may make, for callers that do not know the
/// payload's type in advance (a command-line inspector, a log sampler).
public struct AnySignedPayload: VerifiablePayload, Hashable {
    private struct NotificationData: Decodable, Hashable, Sendable {
        var bundleId: String?
        var environment: AppStoreEnvironment?
        var appAppleId: Int64?
    }

    private var signedDate: Int64?
    private var bundleId: String?
    private var environment: AppStoreEnvironment?
    private var appAppleId: Int64?
    private var data: NotificationData?

    public var signingDate: Date? { signedDate.map { Date(timeIntervalSince1970: Double($0) / 1000) } }

    public var claims: PayloadClaims {
        PayloadClaims(
            bundleId: bundleId ?? data?.bundleId,
            environment: environment ?? data?.environment,
            appAppleId: appAppleId ?? data?.appAppleId
        )
    }
}

/// Why a piece of signed App Store data was rejected.
///
/// ``code`` is stable and machine-readable (its raw value is the snake_case string the
/// CLI and the server report); ``message`` says, for a person, which check failed.
public struct VerificationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable reason codes.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// The input is not valid base64, base64url or UTF-8 where one is required.
        case malformedEncoding = "malformed_encoding"
        /// The container (PKCS#7 SignedData or compact JWS) is not well formed.
        case malformedContainer = "malformed_container"
        /// The signed content (receipt attributes or JSON payload) is not well formed.
        case malformedPayload = "malformed_payload"
        /// The input is larger than any genuine receipt or JWS.
        case inputTooLarge = "input_too_large"
        /// The signature or digest algorithm is not one Apple uses (JWS: ES256 only).
        case unsupportedAlgorithm = "unsupported_algorithm"
        /// The certificates needed to build the chain are absent or the wrong number.
        case missingCertificates = "missing_certificates"
        /// The chain does not lead to a configured trust root.
        case chainUntrusted = "chain_untrusted"
        /// A certificate of the chain was not valid when the data was signed.
        case certificateNotValidAtSigningTime = "certificate_not_valid_at_signing_time"
        /// The leaf or intermediate lacks Apple's marker extension.
        case missingAppleExtension = "missing_apple_extension"
        /// The signature does not verify with the leaf certificate's key.
        case signatureInvalid = "signature_invalid"
        /// An iOS 6 style (pre-PKCS#7) receipt, which cannot be verified locally.
        case unsupportedReceiptFormat = "unsupported_receipt_format"
        /// The data belongs to another app.
        case bundleIdMismatch = "bundle_id_mismatch"
        /// The data comes from an environment the caller does not accept.
        case environmentMismatch = "environment_mismatch"
        /// The data names another app Apple id.
        case appAppleIdMismatch = "app_apple_id_mismatch"
        /// The signing certificate's issuer says, by OCSP, that it is revoked.
        case certificateRevoked = "certificate_revoked"
        /// The online revocation check could not be made now: the responder did not answer,
        /// answered an HTTP error, `tryLater`, `unknown`, or a response that is unusable or
        /// not signed by the issuer.
        case revocationUnavailable = "revocation_unavailable"
    }

    /// The stable reason code.
    public var code: Code
    /// A human-readable account of the failed check.
    public var message: String

    /// Creates an error with a code and a message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Whether the same data may verify later, so the caller should answer "retry later"
    /// rather than refuse it.
    ///
    /// Only ``Code/revocationUnavailable`` is retryable: every other check is decided by
    /// the data and the configured trust alone, so its failure is permanent (the data is
    /// forged, malformed, for another app, or signed by a revoked certificate). An
    /// unavailable revocation check leaves the data undecided: it passed every offline
    /// check, and the same bytes will verify once the responder answers. Apple's server
    /// libraries make the same distinction (`RETRYABLE_VERIFICATION_FAILURE`).
    public var isRetryable: Bool { code == .revocationUnavailable }

    public var description: String { "\(code.rawValue): \(message)" }
}

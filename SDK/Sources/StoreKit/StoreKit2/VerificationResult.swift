import Foundation

/// A type that describes the result of a StoreKit verification.
///
/// Apple: `@frozen enum VerificationResult<SignedType>`
/// (https://developer.apple.com/documentation/storekit/verificationresult). On Linux
/// `.verified` means the JWS's ES256 signature and its `x5c` chain verify up to the
/// emulator root pinned in `$STOREKEEPER_STOREKIT_DATA/emulator-jws-root.der`.
@frozen
public enum VerificationResult<SignedType> {
    /// The associated value failed verification for the provided reason.
    case unverified(SignedType, VerificationResult<SignedType>.VerificationError)
    /// The associated value passed StoreKit automatic verification checks.
    case verified(SignedType)
}

extension VerificationResult {
    /// The verification errors StoreKit can produce.
    public enum VerificationError: Error, Sendable, Hashable {
        /// The certificate chain was parsable, but it was invalid due to a revoked certificate.
        case revokedCertificate
        /// The certificate chain was parsable, but was invalid for signing this data.
        case invalidCertificateChain
        /// The device verification properties were invalid for this device.
        case invalidDeviceVerification
        /// The JWS header or any of its properties were invalid, or it could not be parsed.
        case invalidEncoding
        /// The data could not be verified with the signature.
        case invalidSignature
        /// One or more properties that are required for verification were missing.
        case missingRequiredProperties
    }

    /// The signed type, whether or not it was verified.
    public var unsafePayloadValue: SignedType {
        switch self {
        case .unverified(let value, _), .verified(let value): value
        }
    }

    /// The verified payload value; throws the verification error when it did not verify.
    public var payloadValue: SignedType {
        get throws {
            switch self {
            case .verified(let value): return value
            case .unverified(_, let error): throw error
            }
        }
    }

    /// The JSON web signature representing the signed type.
    public var jwsRepresentation: String { storage?.jws.compact ?? "" }

    /// The header component of the JWS.
    public var headerData: Data { storage?.jws.headerData ?? Data() }

    /// The payload component of the JWS.
    public var payloadData: Data { storage?.jws.payloadData ?? Data() }

    /// The signature component of the JWS.
    public var signatureData: Data { storage?.jws.signatureData ?? Data() }

    /// The data the signature covers (`header.payload`).
    public var signedData: Data { storage?.jws.signingInput ?? Data() }

    /// The date the JWS was signed.
    public var signedDate: Date { storage?.signedDate ?? Date(timeIntervalSince1970: 0) }

    private var storage: JWSStorage? { (unsafePayloadValue as? any JWSBacked)?.jwsStorage }
}

extension VerificationResult: Sendable where SignedType: Sendable {}
extension VerificationResult: Equatable where SignedType: Equatable {}
extension VerificationResult: Hashable where SignedType: Hashable {}

/// The JWS a payload type was decoded from.
package struct JWSStorage: Sendable, Hashable {
    package let jws: JWS
    package let signedDate: Date
}

/// A payload type decoded from a JWS: it keeps the JWS for ``VerificationResult``.
package protocol JWSBacked {
    var jwsStorage: JWSStorage { get }
}

/// Decodes and verifies signed payloads.
package enum SignedPayload {
    /// Decodes `compact` with `decode` and verifies it against the configuration's root.
    ///
    /// - Throws: `StoreKitError.systemError` when the JWS or its payload cannot be read at
    ///   all (there is then no payload to return unverified).
    package static func verify<Value>(
        _ compact: String, configuration: StoreKitConfiguration,
        decode: (Data, JWSStorage) throws -> Value
    ) throws -> VerificationResult<Value> {
        guard let jws = JWS(compact) else {
            throw StoreKitError.systemError(
                EmulatorRequestError(status: 0, code: "invalid_jws", message: "not a compact JWS"))
        }
        let object = (try? JSONSerialization.jsonObject(with: jws.payloadData)) as? [String: Any]
        let signedMilliseconds = (object?["signedDate"] as? NSNumber)?.doubleValue ?? 0
        let storage = JWSStorage(jws: jws, signedDate: Date(timeIntervalSince1970: signedMilliseconds / 1000))
        let value: Value
        do {
            value = try decode(jws.payloadData, storage)
        } catch {
            throw StoreKitError.systemError(error)
        }
        switch JWSVerifier.verify(jws, configuration: configuration) {
        case nil: return .verified(value)
        case .invalidEncoding: return .unverified(value, .invalidEncoding)
        case .invalidCertificateChain: return .unverified(value, .invalidCertificateChain)
        case .invalidSignature: return .unverified(value, .invalidSignature)
        }
    }
}

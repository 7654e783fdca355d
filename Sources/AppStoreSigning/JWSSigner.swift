import Crypto
import Foundation

/// Signs payloads as compact JWS with ES256, the way the App Store signs transactions,
/// renewal info and notifications.
///
/// The output is `base64url(header).base64url(payload).base64url(signature)` without
/// padding; the signature is the raw 64-byte `r || s` form JOSE requires, made with the
/// chain's leaf key.
public struct JWSSigner: Sendable {
    /// The chain whose leaf key signs and whose certificates go into `x5c`.
    public let chain: SigningChain
    private let key: P256.Signing.PrivateKey
    /// ``defaultHeader`` encoded once, as the first segment of a compact JWS: the header
    /// (three certificates) is most of what a signature encodes.
    private let defaultHeaderSegment: String

    /// Creates a signer for an ES256 chain.
    ///
    /// - Parameter chain: The signing chain.
    /// - Throws: ``SigningError/wrongKeyAlgorithm(expected:actual:)`` for an RSA chain;
    ///   ``SigningError/jsonEncodingFailed(_:)`` if its header does not encode.
    public init(chain: SigningChain) throws {
        guard case .p256(let key) = chain.leafKey else {
            throw SigningError.wrongKeyAlgorithm(expected: .es256, actual: chain.algorithm)
        }
        self.chain = chain
        self.key = key
        self.defaultHeaderSegment = try Self.encodeJSON(JWSHeader.apple(for: chain)).base64URLEncodedString
    }

    /// The header the signer uses by default: ``JWSHeader/apple(for:)``.
    public var defaultHeader: JWSHeader { .apple(for: chain) }

    /// Signs a payload encoded as JSON by ``makeJSONEncoder()``.
    ///
    /// - Parameters:
    ///   - payload: The payload.
    ///   - header: The header; `nil` for ``defaultHeader``.
    /// - Returns: The compact JWS.
    /// - Throws: ``SigningError/jsonEncodingFailed(_:)`` or a signing error.
    public func sign<Payload: Encodable>(_ payload: Payload, header: JWSHeader? = nil) throws -> String {
        try sign(payload: Self.encodeJSON(payload), header: header)
    }

    /// Signs raw payload bytes, which need not be JSON.
    ///
    /// - Parameters:
    ///   - payload: The payload bytes.
    ///   - header: The header; `nil` for ``defaultHeader``.
    /// - Returns: The compact JWS.
    /// - Throws: ``SigningError/jsonEncodingFailed(_:)`` or a signing error.
    public func sign(payload: some DataProtocol, header: JWSHeader? = nil) throws -> String {
        let headerSegment = try header.map { try Self.encodeJSON($0).base64URLEncodedString } ?? defaultHeaderSegment
        return try sign(payload: payload, headerSegment: headerSegment)
    }

    /// Signs raw payload bytes under raw header bytes, for headers ``JWSHeader`` cannot
    /// express (e.g. an `x5c` that is not an array, or invalid JSON).
    ///
    /// The signature is always ES256 with the leaf key, whatever the header says.
    ///
    /// - Parameters:
    ///   - payload: The payload bytes.
    ///   - headerJSON: The header bytes, used verbatim.
    /// - Returns: The compact JWS.
    /// - Throws: An error from the P-256 signing operation.
    public func sign(payload: some DataProtocol, headerJSON: some DataProtocol) throws -> String {
        try sign(payload: payload, headerSegment: Data(headerJSON).base64URLEncodedString)
    }

    /// Signs payload bytes under a header already base64url-encoded.
    private func sign(payload: some DataProtocol, headerSegment: String) throws -> String {
        let signingInput = headerSegment + "." + Data(payload).base64URLEncodedString
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + signature.rawRepresentation.base64URLEncodedString
    }

    /// The JSON encoder for payloads and headers: sorted keys, unescaped slashes, and
    /// dates as milliseconds since 1970 (Apple's JWS date format).
    ///
    /// - Returns: A new encoder.
    public static func makeJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }

    private static func encodeJSON(_ value: some Encodable) throws -> Data {
        do {
            return try makeJSONEncoder().encode(value)
        } catch {
            throw SigningError.jsonEncodingFailed(String(describing: error))
        }
    }
}

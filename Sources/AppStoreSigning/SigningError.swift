/// An error thrown while creating a signing chain or signing data.
public enum SigningError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The chain's key algorithm does not suit the signer; e.g. a JWS signer needs an
    /// ES256 chain and a receipt signer an RSA chain.
    case wrongKeyAlgorithm(expected: SigningKeyAlgorithm, actual: SigningKeyAlgorithm)
    /// The leaf certificate's public key is of a type this library does not sign with.
    case unsupportedLeafKey(String)
    /// The private key does not belong to the leaf certificate's public key.
    case privateKeyDoesNotMatchLeaf
    /// A certificate template's validity window ends before it starts.
    case invalidValidityWindow(commonName: String)
    /// A PEM bundle could not be read; the reason says what was wrong.
    case invalidPEM(String)
    /// The BER chunk size for the receipt content must be at least one byte.
    case invalidChunkSize(Int)
    /// A JWS payload or header could not be encoded as JSON; the reason is the
    /// encoder's message.
    case jsonEncodingFailed(String)
    /// A receipt attribute could not be encoded; e.g. a date string that is not ASCII.
    case receiptEncodingFailed(String)

    /// A human-readable explanation of the error.
    public var description: String {
        switch self {
        case .wrongKeyAlgorithm(let expected, let actual):
            return "The signing chain uses \(actual.rawValue) keys, but \(expected.rawValue) is required."
        case .unsupportedLeafKey(let key):
            return "The leaf certificate's key (\(key)) is neither P-256 nor RSA."
        case .privateKeyDoesNotMatchLeaf:
            return "The private key does not match the leaf certificate's public key."
        case .invalidValidityWindow(let commonName):
            return "The certificate \"\(commonName)\" has notValidAfter before notValidBefore."
        case .invalidPEM(let reason):
            return "Invalid PEM signing chain: \(reason)"
        case .invalidChunkSize(let size):
            return "The BER chunk size must be at least 1 byte, got \(size)."
        case .jsonEncodingFailed(let reason):
            return "Could not encode JSON for the JWS: \(reason)"
        case .receiptEncodingFailed(let reason):
            return "Could not encode the receipt payload: \(reason)"
        }
    }
}

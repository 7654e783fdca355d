import Crypto

extension SigningChain {
    /// Generates an ES256 chain as ``generate(_:options:)`` does and also returns the
    /// intermediate's private key, with which an OCSP responder (``OCSPResponder``) signs
    /// its answers about the leaf.
    ///
    /// - Parameter options: The certificate templates; `nil` for
    ///   ``SigningChainOptions/standard(for:now:)``.
    /// - Returns: The chain and the intermediate's P-256 key.
    public static func generateES256KeepingIntermediateKey(
        options: SigningChainOptions? = nil
    ) throws -> (chain: SigningChain, intermediateKey: P256.Signing.PrivateKey) {
        let (chain, key) = try issue(.es256, options: options)
        guard case .p256(let intermediateKey) = key else {
            throw SigningError.wrongKeyAlgorithm(expected: .es256, actual: key.algorithm)
        }
        return (chain, intermediateKey)
    }
}

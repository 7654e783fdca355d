import AppStoreSigning
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509
import _CryptoExtras

@Suite("SigningChain")
struct SigningChainTests {
    @Test("certificates carry CA flags, key usage and Apple's marker OIDs", arguments: SigningKeyAlgorithm.allCases)
    func extensions(algorithm: SigningKeyAlgorithm) throws {
        let chain = try algorithm == .es256 ? SharedChains.es256() : SharedChains.rsa()

        #expect(try chain.root.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
        #expect(try chain.intermediate.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(try chain.leaf.extensions.basicConstraints == .notCertificateAuthority)
        for ca in [chain.root, chain.intermediate] {
            let usage = try #require(try ca.extensions.keyUsage)
            #expect(usage.keyCertSign && usage.cRLSign && !usage.digitalSignature)
        }
        let leafUsage = try #require(try chain.leaf.extensions.keyUsage)
        #expect(leafUsage.digitalSignature && !leafUsage.keyCertSign)

        let intermediateMarker = try #require(chain.intermediate.extensions[oid: AppleMarkerOID.intermediate])
        #expect(!intermediateMarker.critical)
        #expect(Array(intermediateMarker.value) == [0x05, 0x00])
        let leafMarker = try #require(chain.leaf.extensions[oid: AppleMarkerOID.leaf])
        #expect(!leafMarker.critical)
        #expect(Array(leafMarker.value) == [0x05, 0x00])
        #expect(chain.leaf.extensions[oid: AppleMarkerOID.intermediate] == nil)
        #expect(chain.root.extensions[oid: AppleMarkerOID.leaf] == nil)

        #expect(chain.intermediate.issuer == chain.root.subject)
        #expect(chain.leaf.issuer == chain.intermediate.subject)
        #expect(chain.root.issuer == chain.root.subject)
    }

    @Test("certificate signature algorithms match the chain's key type")
    func signatureAlgorithms() throws {
        for certificate in try SharedChains.es256().certificates {
            #expect(certificate.signatureAlgorithm == .ecdsaWithSHA256)
            #expect(P256.Signing.PublicKey(certificate.publicKey) != nil)
        }
        for certificate in try SharedChains.rsa().certificates {
            #expect(certificate.signatureAlgorithm == .sha256WithRSAEncryption)
            let key = try #require(_RSA.Signing.PublicKey(certificate.publicKey))
            #expect(key.keySizeInBits == 2048)
        }
    }

    @Test("X509 Verifier accepts the chain against its root", arguments: SigningKeyAlgorithm.allCases)
    func verifies(algorithm: SigningKeyAlgorithm) async throws {
        let chain = try algorithm == .es256 ? SharedChains.es256() : SharedChains.rsa()
        let result = await validate(chain, trusting: chain)
        guard case .validCertificate(let validated) = result else {
            Issue.record("chain did not validate: \(result)")
            return
        }
        #expect(Array(validated) == chain.certificates)
    }

    @Test("a look-alike chain with the same names but other keys fails against the real root")
    func lookalikeFails() async throws {
        let options = SigningChainOptions.appleNamed(for: .es256)
        let trusted = try SigningChain.generate(.es256, options: options)
        let lookalike = try SigningChain.generate(.es256, options: options)
        #expect(lookalike.root.subject == trusted.root.subject)
        #expect(lookalike.leaf.subject == trusted.leaf.subject)
        #expect(lookalike.root.publicKey != trusted.root.publicKey)
        #expect(lookalike.leaf.subject.description.contains("Prod ECC Mac App Store and iTunes Store Receipt Signing"))

        guard case .couldNotValidate = await validate(lookalike, trusting: trusted) else {
            Issue.record("look-alike chain validated against the trusted root")
            return
        }
    }

    @Test("a leaf outside its validity window fails validation")
    func expiredLeaf() async throws {
        var options = SigningChainOptions.standard(for: .es256)
        options.leaf.notValidBefore = Date().addingTimeInterval(-10 * 86_400)
        options.leaf.notValidAfter = Date().addingTimeInterval(-86_400)
        let chain = try SigningChain.generate(.es256, options: options)
        #expect(chain.leaf.notValidAfter < Date())

        guard case .couldNotValidate = await validate(chain, trusting: chain) else {
            Issue.record("expired leaf validated")
            return
        }
    }

    @Test("options can omit the marker OIDs and set names and serial numbers")
    func customTemplates() throws {
        var options = SigningChainOptions.standard(for: .es256).withoutAppleMarkers()
        options.leaf.commonName = "Custom Leaf"
        options.leaf.organizationName = nil
        options.leaf.serialNumber = Certificate.SerialNumber(bytes: [0x12, 0x34])
        options.intermediate.additionalExtensions = [
            try Certificate.Extension(BasicConstraints.notCertificateAuthority, critical: true)
        ]
        let chain = try SigningChain.generate(.es256, options: options)

        #expect(chain.intermediate.extensions[oid: AppleMarkerOID.intermediate] == nil)
        #expect(chain.leaf.extensions[oid: AppleMarkerOID.leaf] == nil)
        #expect(chain.leaf.subject.description == "C=US,OU=StoreKeeper Developer Relations,CN=Custom Leaf")
        #expect(Array(chain.leaf.serialNumber.bytes) == [0x12, 0x34])
        #expect(try chain.intermediate.extensions.basicConstraints == .notCertificateAuthority)
    }

    @Test("a validity window that ends before it starts is rejected")
    func invalidWindow() throws {
        var options = SigningChainOptions.standard(for: .es256)
        options.leaf.notValidAfter = options.leaf.notValidBefore.addingTimeInterval(-1)
        #expect(throws: SigningError.invalidValidityWindow(commonName: options.leaf.commonName)) {
            try SigningChain.generate(.es256, options: options)
        }
    }

    @Test("PEM export and import give an identical chain", arguments: SigningKeyAlgorithm.allCases)
    func pemRoundTrip(algorithm: SigningKeyAlgorithm) throws {
        let chain = try algorithm == .es256 ? SharedChains.es256() : SharedChains.rsa()
        let pem = chain.pemRepresentation
        #expect(pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 4)
        #expect(pem.contains("-----BEGIN PRIVATE KEY-----"))
        #expect(!pem.contains("RSA PRIVATE KEY") && !pem.contains("EC PRIVATE KEY"))

        let reloaded = try SigningChain(pemRepresentation: pem)
        #expect(reloaded == chain)
        #expect(reloaded.algorithm == algorithm)
        #expect(reloaded.rootCertificateDER == chain.rootCertificateDER)
        #expect(reloaded.pemRepresentation == pem)

        let split = try SigningChain(certificateChainPEM: chain.certificateChainPEM, privateKeyPEM: chain.privateKeyPEM)
        #expect(split == chain)
        #expect(try Certificate(pemEncoded: chain.rootCertificatePEM) == chain.root)
    }

    @Test("PEM import reports missing blocks and foreign keys")
    func pemErrors() throws {
        let chain = try SharedChains.es256()
        #expect(throws: SigningError.invalidPEM("expected 1 private key, found 0")) {
            try SigningChain(pemRepresentation: chain.certificateChainPEM)
        }
        #expect(throws: SigningError.invalidPEM("expected 3 certificates, found 1")) {
            try SigningChain(pemRepresentation: chain.rootCertificatePEM + chain.privateKeyPEM)
        }
        let other = try SigningChain.generate(.es256)
        #expect(throws: SigningError.privateKeyDoesNotMatchLeaf) {
            try SigningChain(certificateChainPEM: chain.certificateChainPEM, privateKeyPEM: other.privateKeyPEM)
        }
        #expect(throws: SigningError.self) {
            try SigningChain(pemRepresentation: "not PEM at all")
        }
    }

    @Test("building a chain from parts checks the leaf key")
    func initFromParts() throws {
        let chain = try SharedChains.es256()
        #expect(throws: SigningError.privateKeyDoesNotMatchLeaf) {
            try SigningChain(
                root: chain.root,
                intermediate: chain.intermediate,
                leaf: chain.leaf,
                leafPrivateKey: P256.Signing.PrivateKey()
            )
        }
    }

    private func validate(_ chain: SigningChain, trusting trusted: SigningChain) async -> CertificateValidationResult {
        var verifier = Verifier(rootCertificates: CertificateStore([trusted.root])) {
            RFC5280Policy()
        }
        return await verifier.validate(leaf: chain.leaf, intermediates: CertificateStore([chain.intermediate]))
    }
}

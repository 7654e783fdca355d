import AppStoreSigning
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509
import _CryptoExtras

@Suite("ReceiptSigner")
struct ReceiptSignerTests {
    static let variants: [(ReceiptSigningOptions.Digest, ReceiptSigningOptions.Encoding)] = [
        (.sha256, .der),
        (.sha1, .der),
        (.sha256, .ber),
        (.sha1, .berIndefiniteLength(chunkSize: 7)),
    ]

    @Test("openssl cms -verify accepts the receipt and outputs the encoded payload", arguments: variants)
    func opensslVerifies(digest: ReceiptSigningOptions.Digest, encoding: ReceiptSigningOptions.Encoding) throws {
        let chain = try SharedChains.rsa()
        let signer = try ReceiptSigner(chain: chain, options: ReceiptSigningOptions(digest: digest, encoding: encoding))
        let payload = try ReceiptPayloadEncoder.encode(Fixtures.receipt())
        let receipt = try signer.sign(Fixtures.receipt())

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outcome = try verifyWithOpenSSL(receipt, root: chain, in: directory)
        #expect(outcome.status == 0, "openssl: \(outcome.standardError)")
        #expect(outcome.standardError.contains("Verification successful"))
        let content = try Data(contentsOf: URL(fileURLWithPath: directory.path("content.bin")))
        #expect(Array(content) == payload)
    }

    @Test("openssl rejects the receipt against a look-alike root")
    func opensslRejectsOtherRoot() throws {
        let chain = try SharedChains.rsa()
        let lookalike = try SigningChain.generate(.rsa2048)
        let receipt = try ReceiptSigner(chain: lookalike).sign(Fixtures.receipt())

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outcome = try verifyWithOpenSSL(receipt, root: chain, in: directory)
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("certificate verify error"))
    }

    @Test("openssl rejects content that the signature does not cover")
    func opensslRejectsTamperedContent() throws {
        let chain = try SharedChains.rsa()
        let signer = try ReceiptSigner(chain: chain)
        let payload = try ReceiptPayloadEncoder.encode(Fixtures.receipt())
        var tampered = payload
        tampered[tampered.count - 1] ^= 0x01
        let receipt = try signer.sign(payload: tampered, signature: signer.signature(over: payload))

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outcome = try verifyWithOpenSSL(receipt, root: chain, in: directory)
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("content verify error"))
    }

    @Test("arbitrary content gets a valid signature")
    func garbageContent() throws {
        let chain = try SharedChains.rsa()
        let garbage: [UInt8] = Array("not a receipt payload".utf8)
        let receipt = try ReceiptSigner(chain: chain).sign(payload: garbage)

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outcome = try verifyWithOpenSSL(receipt, root: chain, in: directory)
        #expect(outcome.status == 0, "openssl: \(outcome.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("content.bin"))) == Data(garbage))
    }

    @Test("the DER container has Apple's SignedData layout")
    func derStructure() throws {
        let chain = try SharedChains.rsa()
        let signer = try ReceiptSigner(chain: chain)
        let payload = try ReceiptPayloadEncoder.encode(Fixtures.receipt())
        let receipt = try signer.sign(payload: payload)

        let contentInfo = try DER.parse(receipt)
        let parsed = try parseSignedData(contentInfo)
        #expect(parsed.content == payload)
        #expect(
            parsed.certificates == [
                chain.leafCertificateDER, chain.intermediateCertificateDER, chain.rootCertificateDER,
            ])
        #expect(parsed.digestOID == [2, 16, 840, 1, 101, 3, 4, 2, 1])

        let key = try #require(_RSA.Signing.PublicKey(chain.leaf.publicKey))
        #expect(
            key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: parsed.signature),
                for: SHA256.hash(data: payload),
                padding: .insecurePKCS1v1_5
            )
        )
    }

    @Test("the BER container uses indefinite lengths and a chunked content")
    func berStructure() throws {
        let chain = try SharedChains.rsa()
        let options = ReceiptSigningOptions(
            digest: .sha1,
            encoding: .berIndefiniteLength(chunkSize: 100),
            certificates: .leafAndIntermediate
        )
        let signer = try ReceiptSigner(chain: chain, options: options)
        let payload = try ReceiptPayloadEncoder.encode(Fixtures.receipt())
        let receipt = try signer.sign(payload: payload)

        #expect(Array(receipt.prefix(2)) == [0x30, 0x80])
        #expect(Array(receipt.suffix(6)) == [0, 0, 0, 0, 0, 0])
        #expect(throws: (any Error).self) { try DER.parse(receipt) }

        let parsed = try parseSignedData(BER.parse(receipt))
        #expect(parsed.content == payload)
        #expect(parsed.contentChunkCount == (payload.count + 99) / 100)
        #expect(parsed.certificates == [chain.leafCertificateDER, chain.intermediateCertificateDER])
        #expect(parsed.digestOID == [1, 3, 14, 3, 2, 26])

        let key = try #require(_RSA.Signing.PublicKey(chain.leaf.publicKey))
        #expect(
            key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: parsed.signature),
                for: Insecure.SHA1.hash(data: payload),
                padding: .insecurePKCS1v1_5
            )
        )
    }

    @Test("certificates can be omitted or replaced")
    func certificateSelection() throws {
        let chain = try SharedChains.rsa()
        var signer = try ReceiptSigner(chain: chain, options: ReceiptSigningOptions(certificates: .omitted))
        #expect(try parseSignedData(DER.parse(signer.sign(payload: [0x01]))).certificates.isEmpty)
        signer.options.certificates = .custom([chain.rootCertificateDER])
        #expect(try parseSignedData(DER.parse(signer.sign(payload: [0x01]))).certificates == [chain.rootCertificateDER])
    }

    @Test("an ES256 chain cannot sign receipts; a chunk size must be positive")
    func errors() throws {
        #expect(throws: SigningError.wrongKeyAlgorithm(expected: .rsa2048, actual: .es256)) {
            try ReceiptSigner(chain: SharedChains.es256())
        }
        let signer = try ReceiptSigner(
            chain: SharedChains.rsa(),
            options: ReceiptSigningOptions(encoding: .berIndefiniteLength(chunkSize: 0))
        )
        #expect(throws: SigningError.invalidChunkSize(0)) {
            try signer.sign(payload: [0x01])
        }
    }

    // MARK: - Helpers

    private func verifyWithOpenSSL(
        _ receipt: [UInt8],
        root: SigningChain,
        in directory: TemporaryDirectory
    ) throws -> OpenSSL.Outcome {
        let receiptPath = try directory.write(receipt, to: "receipt.p7")
        let rootPath = try directory.write(Data(root.rootCertificatePEM.utf8), to: "root.pem")
        // The chain is valid now, so openssl checks validity times (no -no_check_time) and
        // needs no -partial_chain: the CA file holds the self-signed root.
        return try OpenSSL.run(
            [
                "cms", "-verify", "-inform", "DER", "-in", receiptPath, "-CAfile", rootPath,
                "-purpose", "any", "-binary", "-out", directory.path("content.bin"),
            ],
            in: directory
        )
    }

    struct ParsedSignedData {
        var digestOID: ASN1ObjectIdentifier
        var content: [UInt8]
        var contentChunkCount: Int
        var certificates: [[UInt8]]
        var signature: [UInt8]
    }

    /// An independent, minimal reading of the container (BER or DER nodes).
    private func parseSignedData(_ contentInfo: ASN1Node) throws -> ParsedSignedData {
        func children(_ node: ASN1Node) throws -> [ASN1Node] {
            guard case .constructed(let nodes) = node.content else { throw TestFailure("\(node) is primitive") }
            return Array(nodes)
        }
        let info = try children(contentInfo)
        #expect(try ASN1ObjectIdentifier(derEncoded: info[0]) == [1, 2, 840, 113_549, 1, 7, 2])
        let signedData = try children(try children(info[1])[0])
        #expect(try Int(derEncoded: signedData[0]) == 1)
        let digestAlgorithm = try children(try children(signedData[1])[0])
        let digestOID = try ASN1ObjectIdentifier(derEncoded: digestAlgorithm[0])
        #expect(digestAlgorithm[1].identifier == .null)

        let encapsulated = try children(signedData[2])
        #expect(try ASN1ObjectIdentifier(derEncoded: encapsulated[0]) == [1, 2, 840, 113_549, 1, 7, 1])
        let octetString = try children(encapsulated[1])[0]
        var content: [UInt8] = []
        var chunkCount = 1
        switch octetString.content {
        case .primitive(let bytes):
            content = Array(bytes)
        case .constructed(let chunks):
            chunkCount = 0
            for chunk in chunks {
                guard case .primitive(let bytes) = chunk.content else { throw TestFailure("nested chunk") }
                content += bytes
                chunkCount += 1
            }
        }

        var index = 3
        var certificates: [[UInt8]] = []
        if signedData[index].identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            certificates = try children(signedData[index]).map { Array($0.encodedBytes) }
            index += 1
        }
        let signerInfos = try children(signedData[index])
        try #require(signerInfos.count == 1)
        let signerInfo = try children(signerInfos[0])
        #expect(try Int(derEncoded: signerInfo[0]) == 1)
        let issuerAndSerial = try children(signerInfo[1])
        let chain = try SharedChains.rsa()
        #expect(try DistinguishedName(derEncoded: issuerAndSerial[0]) == chain.leaf.issuer)
        #expect(try ArraySlice<UInt8>(derEncoded: issuerAndSerial[1]) == chain.leaf.serialNumber.bytes)
        #expect(try ASN1ObjectIdentifier(derEncoded: children(signerInfo[2])[0]) == digestOID)
        let signatureAlgorithm = try children(signerInfo[3])
        #expect(try ASN1ObjectIdentifier(derEncoded: signatureAlgorithm[0]) == [1, 2, 840, 113_549, 1, 1, 1])
        #expect(signatureAlgorithm[1].identifier == .null)
        let signature = try ASN1OctetString(derEncoded: signerInfo[4])
        #expect(signerInfo.count == 5)

        return ParsedSignedData(
            digestOID: digestOID,
            content: content,
            contentChunkCount: chunkCount,
            certificates: certificates,
            signature: Array(signature.bytes)
        )
    }
}

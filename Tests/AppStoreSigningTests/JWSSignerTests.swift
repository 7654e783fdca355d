import AppStoreSigning
import Crypto
import Foundation
import Testing
import X509

@Suite("JWSSigner")
struct JWSSignerTests {
    struct Payload: Codable, Equatable {
        var bundleId: String
        var productId: String
        var purchaseDate: Int64
        var url: String
    }

    let payload = Payload(
        bundleId: "com.example.storekeeper",
        productId: "com.example.monthly",
        purchaseDate: 1_708_683_072_000,
        url: "https://example.com/a/b"
    )

    @Test("header, payload and signature decode and verify with the leaf's P-256 key")
    func signsAsApple() throws {
        let chain = try SharedChains.es256()
        let jws = try JWSSigner(chain: chain).sign(payload)
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        for part in parts {
            #expect(!part.contains("=") && !part.contains("+") && !part.contains("/"))
        }

        let headerJSON = try #require(base64URLDecode(parts[0]))
        let expectedX5C = [chain.leafCertificateDER, chain.intermediateCertificateDER, chain.rootCertificateDER]
            .map { Data($0).base64EncodedString() }
        let expectedHeader = "{\"alg\":\"ES256\",\"x5c\":[\"\(expectedX5C.joined(separator: "\",\""))\"]}"
        #expect(String(decoding: headerJSON, as: UTF8.self) == expectedHeader)

        let payloadJSON = try #require(base64URLDecode(parts[1]))
        #expect(
            String(decoding: payloadJSON, as: UTF8.self)
                == #"{"bundleId":"com.example.storekeeper","productId":"com.example.monthly","purchaseDate":1708683072000,"url":"https://example.com/a/b"}"#
        )
        #expect(try JSONDecoder().decode(Payload.self, from: payloadJSON) == payload)

        let signature = try #require(base64URLDecode(parts[2]))
        #expect(signature.count == 64)
        let leafKey = try #require(P256.Signing.PublicKey(chain.leaf.publicKey))
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(leafKey.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8)))

        let x5cLeaf = try Certificate(derEncoded: Array(try #require(Data(base64Encoded: expectedX5C[0]))))
        #expect(x5cLeaf == chain.leaf)
    }

    @Test("openssl verifies the ES256 signature with the leaf's public key")
    func opensslVerifies() throws {
        let chain = try SharedChains.es256()
        let jws = try JWSSigner(chain: chain).sign(payload)
        let parts = jws.split(separator: ".")
        let raw = try P256.Signing.ECDSASignature(rawRepresentation: try #require(base64URLDecode(parts[2])))
        let leafKey = try #require(P256.Signing.PublicKey(chain.leaf.publicKey))

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let signingInput = try directory.write(Data("\(parts[0]).\(parts[1])".utf8), to: "input.txt")
        let signature = try directory.write(raw.derRepresentation, to: "signature.der")
        let key = try directory.write(Data(leafKey.pemRepresentation.utf8), to: "leaf.pub.pem")
        let outcome = try OpenSSL.run(
            ["dgst", "-sha256", "-verify", key, "-signature", signature, signingInput],
            in: directory
        )
        #expect(outcome.status == 0, "openssl: \(outcome.standardError)")
    }

    @Test("signing is deterministic apart from the ECDSA nonce")
    func deterministicEncoding() throws {
        let signer = try JWSSigner(chain: SharedChains.es256())
        let first = try signer.sign(payload).split(separator: ".")
        let second = try signer.sign(payload).split(separator: ".")
        #expect(first[0] == second[0])
        #expect(first[1] == second[1])
    }

    @Test("raw payload bytes and custom headers for negative vectors")
    func customHeaders() throws {
        let chain = try SharedChains.es256()
        let signer = try JWSSigner(chain: chain)
        let garbage: [UInt8] = [0xFF, 0x00, 0x7B]

        let none = try signer.sign(payload: garbage, header: JWSHeader(alg: "none"))
        let noneParts = none.split(separator: ".")
        #expect(base64URLDecode(noneParts[0]).map { String(decoding: $0, as: UTF8.self) } == #"{"alg":"none"}"#)
        #expect(base64URLDecode(noneParts[1]) == Data(garbage))

        let twoCertificates = JWSHeader(
            alg: "HS256",
            certificatesDER: [chain.leafCertificateDER, chain.intermediateCertificateDER]
        )
        let hs = try signer.sign(payload, header: twoCertificates)
        let hsHeader = try JSONDecoder().decode(
            JWSHeader.self,
            from: try #require(base64URLDecode(hs.split(separator: ".")[0]))
        )
        #expect(hsHeader == twoCertificates)
        #expect(hsHeader.x5c?.count == 2)

        let raw = try signer.sign(payload: Data("{}".utf8), headerJSON: Data(#"{"alg":"ES256","x5c":"oops"}"#.utf8))
        let rawParts = raw.split(separator: ".")
        #expect(
            base64URLDecode(rawParts[0]).map { String(decoding: $0, as: UTF8.self) } == #"{"alg":"ES256","x5c":"oops"}"#
        )
        let leafKey = try #require(P256.Signing.PublicKey(chain.leaf.publicKey))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(base64URLDecode(rawParts[2])))
        #expect(leafKey.isValidSignature(signature, for: Data("\(rawParts[0]).\(rawParts[1])".utf8)))
    }

    @Test("an RSA chain cannot sign JWS")
    func rejectsRSAChain() throws {
        #expect(throws: SigningError.wrongKeyAlgorithm(expected: .es256, actual: .rsa2048)) {
            try JWSSigner(chain: SharedChains.rsa())
        }
    }

    @Test("dates encode as milliseconds since 1970")
    func dates() throws {
        struct Dated: Encodable { var signedDate: Date }
        let jws = try JWSSigner(chain: SharedChains.es256()).sign(Dated(signedDate: Fixtures.creationDate))
        let payload = try #require(base64URLDecode(jws.split(separator: ".")[1]))
        #expect(String(decoding: payload, as: UTF8.self) == #"{"signedDate":1708683072000}"#)
    }
}

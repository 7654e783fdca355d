import AppStoreSigning
import AppStoreVerification
import Crypto
import Foundation
import Synchronization
import Testing
import X509

/// An OCSP responder reached in memory: answers with `answer` and counts requests.
final class InMemoryOCSPTransport: OCSPTransport {
    private let state: Mutex<(answer: @Sendable ([UInt8]) throws -> OCSPTransportResponse, requests: Int)>

    init(_ answer: @escaping @Sendable ([UInt8]) throws -> OCSPTransportResponse) {
        state = Mutex((answer, 0))
    }

    var requestCount: Int { state.withLock { $0.requests } }

    func answer(with answer: @escaping @Sendable ([UInt8]) throws -> OCSPTransportResponse) {
        state.withLock { $0.answer = answer }
    }

    func post(_ request: [UInt8], to url: URL) async throws -> OCSPTransportResponse {
        let answer = state.withLock { state in
            state.requests += 1
            return state.answer
        }
        return try answer(request)
    }
}

private struct ResponderDown: Error {}

@Suite("OCSP revocation check of the JWS signing leaf")
struct RevocationCheckTests {
    static let issued = try! SigningChain.generateES256KeepingIntermediateKey()
    static let url = URL(string: "http://ocsp.example.test/ocsp")!

    let chain = Self.issued.chain
    let jws: String

    init() throws {
        jws = try JWSSigner(chain: Self.issued.chain).sign(OwnVectors.transaction())
    }

    /// A transport whose responder answers `status` for every certificate, signed by `key`.
    static func responder(
        _ status: OCSPResponder.CertificateStatus,
        signedBy key: P256.Signing.PrivateKey = issued.intermediateKey
    ) throws -> InMemoryOCSPTransport {
        let responder = try OCSPResponder(issuer: issued.chain.intermediate, signingKey: key)
        return InMemoryOCSPTransport { request in
            OCSPTransportResponse(
                statusCode: 200, body: try responder.response(to: request, at: Date()) { _ in status })
        }
    }

    func verifier(_ transport: InMemoryOCSPTransport) -> JWSVerifier {
        JWSVerifier(
            roots: TrustRoots([chain.root]),
            revocationCheck: RevocationCheck(transport: transport, fallbackResponderURL: Self.url)
        )
    }

    /// Expects `verify` to fail with `code` and the given retryability.
    func expectFailure(_ code: VerificationError.Code, retryable: Bool, _ transport: InMemoryOCSPTransport) async {
        do {
            _ = try await verifier(transport).verifyTransaction(jws)
            Issue.record("expected \(code.rawValue), but the data verified")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.isRetryable == retryable)
        }
    }

    @Test("a good answer verifies, and is remembered: the next verification asks nobody")
    func goodAnswerIsCached() async throws {
        let transport = try Self.responder(.good)
        let verifier = verifier(transport)
        _ = try await verifier.verifyTransaction(jws)
        _ = try await verifier.verifyTransaction(jws)
        #expect(transport.requestCount == 1)
    }

    @Test("a good answer is trusted no longer than the configured maximum")
    func cacheExpires() async throws {
        let transport = try Self.responder(.good)
        let clock = Mutex(Date())
        let check = RevocationCheck(
            transport: transport, fallbackResponderURL: Self.url, maximumCacheDuration: 60,
            now: { clock.withLock { $0 } })
        try await check.check(chain.leaf, issuedBy: chain.intermediate)
        clock.withLock { $0 += 61 }
        try await check.check(chain.leaf, issuedBy: chain.intermediate)
        #expect(transport.requestCount == 2)
    }

    @Test("a revoked leaf is refused for good: certificate_revoked, not retryable")
    func revoked() async throws {
        await expectFailure(
            .certificateRevoked, retryable: false, try Self.responder(.revoked(Date(timeIntervalSinceNow: -60))))
    }

    @Test("a responder that does not answer leaves the data undecided: revocation_unavailable, retryable")
    func responderDown() async {
        await expectFailure(
            .revocationUnavailable, retryable: true, InMemoryOCSPTransport { _ in throw ResponderDown() })
    }

    @Test("an HTTP error, tryLater, unknown or garbage is retryable")
    func unusableAnswers() async throws {
        let answers: [@Sendable ([UInt8]) throws -> OCSPTransportResponse] = [
            { _ in OCSPTransportResponse(statusCode: 503, body: []) },
            { _ in OCSPTransportResponse(statusCode: 200, body: OCSPResponder.errorResponse(.tryLater)) },
            { _ in OCSPTransportResponse(statusCode: 200, body: Array("not DER".utf8)) },
        ]
        for answer in answers {
            await expectFailure(.revocationUnavailable, retryable: true, InMemoryOCSPTransport(answer))
        }
        await expectFailure(.revocationUnavailable, retryable: true, try Self.responder(.unknown))
    }

    @Test("an answer signed by another key than the issuer's is not believed: retryable, even when it says revoked")
    func wrongSigner() async throws {
        let stranger = P256.Signing.PrivateKey()
        await expectFailure(.revocationUnavailable, retryable: true, try Self.responder(.good, signedBy: stranger))
        await expectFailure(
            .revocationUnavailable, retryable: true, try Self.responder(.revoked(Date()), signedBy: stranger))
    }

    @Test("forged data is refused before the responder is asked")
    func forgedDataAsksNobody() async throws {
        let transport = try Self.responder(.good)
        let forged = OwnVectors.replacingSegment(2, of: jws, with: Data(repeating: 1, count: 64))
        await expectRejection(.signatureInvalid) { _ = try await verifier(transport).verifyTransaction(forged) }
        #expect(transport.requestCount == 0)
    }

    @Test("the request names the leaf by SHA-1 of its issuer's name and key and by its serial number")
    func requestNamesTheLeaf() async throws {
        let captured = Mutex<[UInt8]>([])
        let transport = InMemoryOCSPTransport { request in
            captured.withLock { $0 = request }
            throw ResponderDown()
        }
        await expectFailure(.revocationUnavailable, retryable: true, transport)
        let responder = try OCSPResponder(issuer: chain.intermediate, signingKey: Self.issued.intermediateKey)
        let serials = Mutex<[Certificate.SerialNumber]>([])
        _ = try responder.response(to: captured.withLock { $0 }, at: Date()) { serial in
            serials.withLock { $0.append(serial) }
            return .good
        }
        #expect(serials.withLock { $0 } == [chain.leaf.serialNumber])
    }

    @Test("without a responder URL in the leaf or the configuration the check is unavailable")
    func noResponder() async throws {
        let transport = try Self.responder(.good)
        let verifier = JWSVerifier(
            roots: TrustRoots([chain.root]), revocationCheck: RevocationCheck(transport: transport))
        await expectRejection(.revocationUnavailable) { _ = try await verifier.verifyTransaction(jws) }
        #expect(transport.requestCount == 0)
    }

    @Test("isRetryable holds for revocation_unavailable alone")
    func retryableCodes() {
        let retryable = VerificationError.Code.allCases.filter { VerificationError($0, "").isRetryable }
        #expect(retryable == [.revocationUnavailable])
    }
}

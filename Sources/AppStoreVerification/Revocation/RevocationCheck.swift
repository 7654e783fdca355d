import Foundation
import X509

/// An online revocation check of a signing certificate by OCSP (RFC 6960).
///
/// For a leaf and its issuer it asks the responder the leaf's Authority Information
/// Access names (or ``fallbackResponderURL`` when it names none), checks that the
/// issuer's key signed the answer, and reads the leaf's status:
///
/// - `good`: the check passes, and the answer is remembered until its `nextUpdate` or
///   for ``maximumCacheDuration``, whichever is sooner, so a stream of data from one
///   signer asks once.
/// - `revoked`: ``VerificationError`` `certificate_revoked`, permanent.
/// - anything else (no answer, an HTTP error, `tryLater` or another error status,
///   `unknown`, a stale, malformed or badly signed response):
///   `revocation_unavailable`, which ``VerificationError/isRetryable``.
///
/// The check is a value; copies share the remembered answers.
public struct RevocationCheck: Sendable {
    /// Carries requests to the responder.
    public let transport: any OCSPTransport
    /// The responder asked when the leaf names none.
    public let fallbackResponderURL: URL?
    /// The longest a `good` answer is trusted.
    public let maximumCacheDuration: TimeInterval

    private let now: @Sendable () -> Date
    private let answers = GoodAnswerCache()
    /// How far a responder's clock may run ahead of ours.
    private static let clockSkew: TimeInterval = 300

    /// Creates a check.
    ///
    /// - Parameters:
    ///   - transport: carries requests to the responder.
    ///   - fallbackResponderURL: the responder for leaves without an OCSP access location.
    ///   - maximumCacheDuration: the longest a `good` answer is trusted, in seconds.
    ///   - now: the clock; the system clock by default.
    public init(
        transport: any OCSPTransport,
        fallbackResponderURL: URL? = nil,
        maximumCacheDuration: TimeInterval = 3600,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.transport = transport
        self.fallbackResponderURL = fallbackResponderURL
        self.maximumCacheDuration = maximumCacheDuration
        self.now = now
    }

    /// Checks that `certificate`, issued by `issuer`, is not revoked.
    public func check(_ certificate: Certificate, issuedBy issuer: Certificate) async throws(VerificationError) {
        let certificateID = try OCSPCertificateID(certificate: certificate, issuer: issuer)
        let time = now()
        if let expiry = await answers.expiry(of: certificateID), time < expiry { return }
        guard let url = Self.responderURL(of: certificate) ?? fallbackResponderURL else {
            throw VerificationError(
                .revocationUnavailable, "the certificate names no OCSP responder and none is configured")
        }
        let answer: OCSPTransportResponse
        do {
            answer = try await transport.post(try certificateID.requestDER(), to: url)
        } catch {
            throw VerificationError(.revocationUnavailable, "the OCSP responder \(url) did not answer: \(error)")
        }
        guard answer.statusCode == 200 else {
            throw VerificationError(
                .revocationUnavailable, "the OCSP responder \(url) answered HTTP \(answer.statusCode)")
        }
        let response: OCSPResponse
        do {
            response = try OCSPResponse(der: answer.body, about: certificateID, signedBy: issuer)
        } catch {
            throw VerificationError(.revocationUnavailable, "the OCSP response is unusable: \(error.message)")
        }
        switch response.status {
        case .revoked(let revocationTime):
            throw VerificationError(
                .certificateRevoked, "the signing certificate \(certificate.subject) was revoked at \(revocationTime)")
        case .unknown:
            throw VerificationError(.revocationUnavailable, "the OCSP responder does not know the signing certificate")
        case .good:
            guard response.thisUpdate <= time.addingTimeInterval(Self.clockSkew) else {
                throw VerificationError(.revocationUnavailable, "the OCSP response is dated in the future")
            }
            if let nextUpdate = response.nextUpdate, nextUpdate < time {
                throw VerificationError(.revocationUnavailable, "the OCSP response is stale (nextUpdate \(nextUpdate))")
            }
            let expiry = min(response.nextUpdate ?? .distantFuture, time.addingTimeInterval(maximumCacheDuration))
            await answers.remember(certificateID, until: expiry, at: time)
        }
    }

    /// The first HTTP OCSP access location of the certificate's Authority Information Access.
    private static func responderURL(of certificate: Certificate) -> URL? {
        guard let access = try? certificate.extensions.authorityInformationAccess else { return nil }
        for description in access where description.method == .ocspServer {
            if case .uniformResourceIdentifier(let uri) = description.location, let url = URL(string: uri),
                url.scheme == "http" || url.scheme == "https"
            {
                return url
            }
        }
        return nil
    }
}

/// The `good` answers a ``RevocationCheck`` trusts, and until when.
private actor GoodAnswerCache {
    private var expiries: [OCSPCertificateID: Date] = [:]

    func expiry(of certificateID: OCSPCertificateID) -> Date? { expiries[certificateID] }

    /// Stores an answer, dropping those expired at `time`.
    func remember(_ certificateID: OCSPCertificateID, until expiry: Date, at time: Date) {
        expiries = expiries.filter { $0.value > time }
        expiries[certificateID] = expiry
    }
}

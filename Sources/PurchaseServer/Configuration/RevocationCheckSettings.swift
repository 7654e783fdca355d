import AppStoreAPI
import AppStoreVerification
import Foundation

/// The online revocation check (OCSP) of the certificate that signed each JWS: see
/// docs/server.md, "Verification failures: retry or refuse". Off by default; when on, a
/// responder that cannot answer makes signed data "retry later" (503) instead of
/// delivered, and a revoked certificate makes it refused (422).
public struct RevocationCheckSettings: Codable, Hashable, Sendable {
    /// Whether signed data's signing certificate is checked online.
    public var enabled: Bool
    /// The OCSP responder asked when the certificate names none (Authority Information
    /// Access); the emulator's is `<emulator>/emulator/v1/ocsp`.
    public var url: URL?
    /// How long to wait for the responder, in seconds.
    public var timeoutSeconds: Double
    /// The longest a `good` answer is trusted, in seconds (less when the answer's
    /// `nextUpdate` comes sooner).
    public var cacheSeconds: Double

    /// Creates settings; off by default, 5 s timeout, 1 hour cache.
    public init(enabled: Bool = false, url: URL? = nil, timeoutSeconds: Double = 5, cacheSeconds: Double = 3_600) {
        self.enabled = enabled
        self.url = url
        self.timeoutSeconds = timeoutSeconds
        self.cacheSeconds = cacheSeconds
    }

    /// Decodes settings; absent keys keep the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = RevocationCheckSettings()
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? defaults.enabled
        url = try container.decodeIfPresent(URL.self, forKey: .url)
        timeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .timeoutSeconds) ?? defaults.timeoutSeconds
        cacheSeconds = try container.decodeIfPresent(Double.self, forKey: .cacheSeconds) ?? defaults.cacheSeconds
    }

    /// Problems that stop the server from starting.
    var validationProblems: [String] {
        var problems: [String] = []
        if !(timeoutSeconds > 0 && timeoutSeconds <= 60) {
            problems.append("revocationCheck.timeoutSeconds must be more than 0 and at most 60")
        }
        if !(cacheSeconds >= 0 && cacheSeconds <= 86_400) {
            problems.append("revocationCheck.cacheSeconds must be from 0 to 86400 (a day)")
        }
        if let url, url.scheme != "http" && url.scheme != "https" {
            problems.append("revocationCheck.url must be an http or https URL")
        }
        return problems
    }
}

extension RevocationCheckSettings {
    /// The verifier's check over `transport`, or `nil` when off.
    func check(transport: any HTTPTransport) -> RevocationCheck? {
        guard enabled else { return nil }
        return RevocationCheck(
            transport: HTTPOCSPTransport(transport: transport, timeout: .milliseconds(Int64(timeoutSeconds * 1_000))),
            fallbackResponderURL: url, maximumCacheDuration: cacheSeconds)
    }
}

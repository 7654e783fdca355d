import Foundation

/// The fields the SDK reads from a signed transaction's payload (the middle segment of its
/// compact JWS), without checking its signature: the server verifies every signed
/// transaction before it trusts any of it; the client only needs to identify it.
struct SignedTransactionFields: Decodable, Hashable, Sendable {
    /// Apple's `appTransactionId`.
    var appTransactionId: String?

    /// The fields of `jws`, or `nil` when it is not a compact JWS whose payload is a JSON
    /// object.
    init?(_ jws: String) {
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { return nil }
        var base64 = segments[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let payload = Data(base64Encoded: base64),
            let fields = try? JSONDecoder().decode(Self.self, from: payload)
        else { return nil }
        self = fields
    }
}

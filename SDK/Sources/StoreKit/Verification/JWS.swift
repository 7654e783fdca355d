import Foundation

/// A JWS in compact serialization, split into its parts.
package struct JWS: Sendable, Hashable {
    /// `header.payload.signature`, as received.
    package let compact: String
    package let headerData: Data
    package let payloadData: Data
    package let signatureData: Data
    /// `header.payload`, the bytes the signature covers.
    package let signingInput: Data

    /// Splits `compact`; `nil` when it is not three base64url parts.
    package init?(_ compact: String) {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Data(base64URL: parts[0]), let payload = Data(base64URL: parts[1]),
            let signature = Data(base64URL: parts[2])
        else { return nil }
        self.compact = compact
        self.headerData = header
        self.payloadData = payload
        self.signatureData = signature
        self.signingInput = Data("\(parts[0]).\(parts[1])".utf8)
    }

    /// The header's `alg` and `x5c` certificates (DER).
    package var header: (algorithm: String?, certificates: [Data])? {
        guard let object = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any] else { return nil }
        let chain = (object["x5c"] as? [String])?.compactMap { Data(base64Encoded: $0) } ?? []
        return (object["alg"] as? String, chain)
    }
}

extension Data {
    /// Decodes base64url without padding, as JWS encodes its parts.
    package init?(base64URL text: some StringProtocol) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64.append("=") }
        self.init(base64Encoded: base64)
    }
}

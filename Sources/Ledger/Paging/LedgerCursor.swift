import Foundation

/// Where a page of a list ends: the sort key of its last item (creation time at the
/// ledger's millisecond resolution, then the item's id), so the next page starts right
/// after it whatever was appended in between.
///
/// Clients see it as an opaque ``token``; a token the ledger did not make is refused by
/// ``init(token:)``.
public struct LedgerCursor: Hashable, Sendable {
    /// The last item's creation time, epoch milliseconds.
    public var createdAtMilliseconds: Int64
    /// The last item's id (the tie-breaker among items created in the same millisecond).
    public var id: String

    /// The longest id a cursor carries.
    static let maximumIdBytes = 256

    /// A cursor after the item created at `createdAt` with `id`.
    public init(createdAt: Date, id: String) {
        self.createdAtMilliseconds = createdAt.ledgerMilliseconds
        self.id = id
    }

    /// The cursor a ``token`` stands for, or `nil` when `token` is not one.
    public init?(token: String) {
        guard token.utf8.count <= 2 * Self.maximumIdBytes, let data = Self.decodeBase64URL(token),
            let text = String(data: data, encoding: .utf8),
            let separator = text.firstIndex(of: ":"),
            let milliseconds = Int64(text[..<separator]), milliseconds >= 0
        else { return nil }
        let id = String(text[text.index(after: separator)...])
        guard !id.isEmpty, id.utf8.count <= Self.maximumIdBytes else { return nil }
        self.createdAtMilliseconds = milliseconds
        self.id = id
    }

    /// The opaque text a client sends back to get the next page (base64url, no padding).
    public var token: String {
        Data("\(createdAtMilliseconds):\(id)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The creation time as a date, for binding as a timestamp.
    var createdAt: Date { Date(ledgerMilliseconds: createdAtMilliseconds) }

    private static func decodeBase64URL(_ text: String) -> Data? {
        guard text.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "/") }) else {
            return nil
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

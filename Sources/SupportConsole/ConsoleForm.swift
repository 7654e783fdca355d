import Foundation
import Hummingbird
import NIOCore

/// The fields of an `application/x-www-form-urlencoded` body (a console form): `+` and
/// percent escapes decoded; of repeated keys the first wins; pairs that do not decode are
/// left out.
struct ConsoleForm: Sendable, Hashable {
    /// The largest body read (64 KiB); a larger one is refused with 413.
    static let maximumBytes = 65_536

    /// The fields by name.
    private(set) var fields: [String: String] = [:]

    /// Decodes an urlencoded body.
    init(urlEncoded body: String) {
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), !name.isEmpty else { continue }
            guard let value = parts.count > 1 ? Self.decode(parts[1]) : "" else { continue }
            if fields[name] == nil { fields[name] = value }
        }
    }

    /// Reads and decodes the body of `request`; throws ``ConsoleError`` `request_too_large`
    /// (413) beyond ``maximumBytes``.
    static func read(_ request: Request) async throws -> ConsoleForm {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw ConsoleError(code: "request_too_large", status: .contentTooLarge)
        } catch is NIOTooManyBytesError {
            // What a body that arrives in parts throws when it grows past the limit.
            throw ConsoleError(code: "request_too_large", status: .contentTooLarge)
        }
        return ConsoleForm(urlEncoded: String(decoding: buffer.readableBytesView, as: UTF8.self))
    }

    /// The field `name`, if the form has it.
    subscript(_ name: String) -> String? { fields[name] }

    private static func decode(_ text: Substring) -> String? {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}

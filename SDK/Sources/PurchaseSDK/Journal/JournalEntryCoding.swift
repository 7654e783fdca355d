import Foundation

/// One journal line: the record as JSON after its CRC-32 in hex, `1a2b3c4d {"id":…}`.
/// A line whose checksum does not match (a torn or corrupted write) is refused by itself;
/// the lines around it still load.
enum JournalEntryCoding {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

    /// The line for `record`, newline included.
    static func line(for record: PurchaseRecord) throws -> Data {
        let json = try encoder.encode(record)
        return Data(String(format: "%08x ", CRC32.checksum(json)).utf8) + json + Data("\n".utf8)
    }

    /// What one line held.
    enum Entry {
        /// A record, with its line as read (newline not included).
        case record(PurchaseRecord, line: Substring)
        case damaged(JournalDamage)
    }

    /// The record a line holds, or why it cannot be trusted.
    static func entry(from line: Substring, number: Int) -> Entry {
        let text = String(line)
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 8, let checksum = UInt32(parts[0], radix: 16) else {
            return .damaged(damage("malformed_entry", text, number))
        }
        let json = Data(parts[1].utf8)
        guard CRC32.checksum(json) == checksum else { return .damaged(damage("checksum_mismatch", text, number)) }
        do {
            return .record(try decoder.decode(PurchaseRecord.self, from: json), line: line)
        } catch {
            return .damaged(damage("undecodable_record", text, number))
        }
    }

    private static func damage(_ reason: String, _ text: String, _ number: Int) -> JournalDamage {
        JournalDamage(line: number, reason: reason, recordId: recordId(in: text), text: text)
    }

    /// The `"id":"…"` value still legible in damaged text.
    private static func recordId(in text: String) -> String? {
        guard let start = text.range(of: #""id":""#) else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}

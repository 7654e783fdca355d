// libFuzzer target: the SDK journal's line decoder (`JournalEntryCoding.entry`), on a
// whole journal file as `FilePurchaseJournal.load()` splits it.
//
// A CRC-32 is out of a fuzzer's reach, so the first line is also tried with its checksum
// replaced by the correct one, which lets the JSON record decoder see mutated input.
//
// Property: a line that decodes to a record re-encodes (`JournalEntryCoding.line(for:)`)
// to one line that decodes to the same record.

import Foundation
import FuzzSupport

@testable import PurchaseSDK

@main
enum Entry {
    static func main() { LibFuzzer.run(fuzzJournalLine) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournalLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: LibFuzzer.bytes(data, size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() where !line.isEmpty {
        check(JournalEntryCoding.entry(from: line, number: index + 1), line: line)
    }
    if let first = lines.first {
        // The JSON after the line's checksum (or the whole line), with a correct checksum.
        let parts = first.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        let json = parts.count == 2 && parts[0].utf8.count == 8 ? parts[1] : first
        let forged = String(format: "%08x ", CRC32.checksum(Data(json.utf8))) + json
        check(JournalEntryCoding.entry(from: forged[...], number: 1), line: forged[...])
    }
    return 0
}

private func check(_ entry: JournalEntryCoding.Entry, line: Substring) {
    switch entry {
    case .damaged(let damage):
        precondition(damage.text == String(line), "a damaged entry does not keep its text")
    case .record(let record, let kept):
        precondition(kept == line, "a record does not keep its line as read")
        checkRoundTrip(record)
    }
}

/// Re-encodes `record` and checks its line decodes to the same record.
private func checkRoundTrip(_ record: PurchaseRecord) {
    let encoded: Data
    do {
        encoded = try JournalEntryCoding.line(for: record)
    } catch {
        fatalError("a decoded record does not encode: \(error)")
    }
    let text = String(decoding: encoded, as: UTF8.self)
    precondition(text.last == "\n", "an encoded line lacks its newline")
    let line = text.dropLast()
    precondition(!line.contains("\n"), "an encoded record spans several lines")
    guard case .record(let again, _) = JournalEntryCoding.entry(from: line, number: 1) else {
        fatalError("a decoded record, re-encoded, no longer decodes: \(line)")
    }
    precondition(again == record, "a decoded record, re-encoded, decodes differently:\n\(record)\n\(again)")
}

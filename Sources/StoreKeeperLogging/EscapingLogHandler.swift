import Foundation
import Logging

/// The log handler of every `storekeeper` command: one line per record on standard error,
/// `TIME LEVEL LABEL: key=value … [SOURCE] MESSAGE`, in which nothing a client sent can
/// forge a line.
///
/// Every part of a record (message, metadata keys and values, label, source) may carry
/// outside text: a transaction id, a path, an error's description. Each part goes through
/// ``LogText/escaped(_:)`` before it is printed, so a newline, a carriage return or a
/// terminal escape in any of them shows as `\n`, `\r` or `\u{1B}` inside the record that
/// carried it. Metadata values that hold anything but letters, digits and `._:/@+-` are
/// quoted, so a value cannot pose as a further `key=value` pair either.
///
/// With ``LogFormat/json`` the same record is one JSON object per line (``LogJSON``), with
/// the same guarantees. With a ``RepeatedLogLines``, a record that repeats (warnings and
/// errors) is written once per interval with its count.
public struct EscapingLogHandler: LogHandler {
    /// The least severe level printed.
    public var logLevel: Logger.Level = .info
    /// Metadata printed with every record of this handler.
    public var metadata: Logger.Metadata = [:]
    /// Contextual metadata added to every record.
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let format: LogFormat
    private let repeats: RepeatedLogLines?
    private let write: @Sendable (String) -> Void

    /// A handler for `label` that passes each finished line (ending in `\n`) to `write`,
    /// in `format`, counting the repeats of a record in `repeats` (when given) instead of
    /// writing each.
    public init(
        label: String, format: LogFormat = .text, repeats: RepeatedLogLines? = nil,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.label = label
        self.format = format
        self.repeats = repeats
        self.write = write
    }

    /// A handler for `label` that prints to standard error, one `write` per line (so lines
    /// from several threads never interleave): pass it to `LoggingSystem.bootstrap`.
    public static func standardError(label: String) -> EscapingLogHandler {
        EscapingLogHandler(label: label) { line in
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// `2026-11-28T13:09:00.123Z`.
    fileprivate static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The metadata value for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Prints one record as one line (or counts it, when it repeats one just written).
    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        let record = Record(
            level: event.level, label: label, source: event.source, message: event.message.description,
            metadata: merged)
        if let repeats, event.level >= repeats.minimumLevel {
            let written = repeats.admit(record.identity) { [format, write] count, over in
                var summary = record
                summary.message = RepeatedLogLines.message(record.message, repeated: count, over: over)
                // The repeats' paths and request ids differ: the count line names none.
                summary.metadata = record.metadata.filter { !RepeatedLogLines.ignoredMetadataKeys.contains($0.key) }
                summary.metadata["repeated"] = .string("\(count)")
                write(summary.line(format))
            }
            guard written else { return }
        }
        write(record.line(format))
    }

    /// One record, before it is written.
    private struct Record: Sendable {
        var level: Logger.Level
        var label: String
        var source: String
        var message: String
        var metadata: Logger.Metadata

        /// The record as one line in `format`, stamped with the time now.
        func line(_ format: LogFormat) -> String {
            let time = Date().formatted(EscapingLogHandler.timeFormat)
            switch format {
            case .text: return "\(time) \(level) " + text(metadata) + "\n"
            case .json:
                return LogJSON.line(
                    timestamp: time, level: level, label: label, source: source, message: message, metadata: metadata)
            }
        }

        /// What makes records identical for ``RepeatedLogLines``: the text line without its
        /// time and without the metadata keys that differ per request.
        var identity: String {
            text(metadata.filter { !RepeatedLogLines.ignoredMetadataKeys.contains($0.key) })
        }

        /// `LABEL: key=value … [SOURCE] MESSAGE`, escaped.
        private func text(_ metadata: Logger.Metadata) -> String {
            let pairs = metadata.sorted { $0.key < $1.key }.map {
                "\(LogText.escaped($0.key))=\(EscapingLogHandler.render($0.value))"
            }
            var line = "\(LogText.escaped(label)):"
            if !pairs.isEmpty { line += " " + pairs.joined(separator: " ") }
            return line + " [\(LogText.escaped(source))] \(LogText.escaped(message))"
        }
    }

    /// A metadata value as printed, escaped (``LogText/escaped(_:)``): bare when it holds
    /// only letters, digits and `._:/@+-`, in double quotes otherwise (a `"` inside written
    /// `\"`); arrays and dictionaries in brackets.
    static func render(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .stringConvertible(let convertible): quoted(convertible.description)
        case .array(let values): "[" + values.map(render).joined(separator: ", ") + "]"
        case .dictionary(let values):
            "["
                + values.sorted { $0.key < $1.key }.map { "\(quoted($0.key)): \(render($0.value))" }
                .joined(separator: ", ") + "]"
        }
    }

    private static func quoted(_ text: String) -> String {
        let escaped = LogText.escaped(text)
        let bare =
            !escaped.isEmpty
            && escaped.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "._:/@+-".unicodeScalars.contains(scalar)
            }
        return bare ? escaped : "\"" + escaped.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// How ``EscapingLogHandler`` writes a record: the same record, the same guarantees (one
/// line, nothing a client sent can forge another), two shapes.
public enum LogFormat: String, Sendable, CaseIterable {
    /// `TIME LEVEL LABEL: key=value … [SOURCE] MESSAGE`, every part escaped
    /// (``LogText/escaped(_:)``): for people.
    case text
    /// One JSON object per line (``LogJSON``): for log collectors.
    case json
}

import ArgumentParser

/// The check of the options given in seconds (`--seconds`, `--outage`): `inf`, `nan` or
/// `1e300` is a usage error, not a crash when the value becomes a `Duration`.
enum SecondsOption {
    /// The longest such option: a week, 604800 seconds.
    static let longest: Double = 7 * 86_400

    /// Throws unless `value` is more than zero (or, when `allowsZero`, zero) and at most
    /// ``longest``.
    ///
    /// - Parameters:
    ///   - value: the option's value, in seconds.
    ///   - option: the option's name, for the message (`--seconds`).
    ///   - allowsZero: whether zero is allowed.
    /// - Throws: `ValidationError` naming the option and its range.
    static func check(_ value: Double, _ option: String, allowsZero: Bool = false) throws {
        guard value.isFinite, value <= longest, value > 0 || (allowsZero && value == 0) else {
            throw ValidationError(
                "\(option) must be \(allowsZero ? "from 0" : "more than 0") and at most 604800 seconds (a week)")
        }
    }
}

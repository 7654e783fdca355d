/// A request the emulator refuses, with a stable code and the HTTP status it maps to.
public struct EmulatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable machine-readable code, e.g. `unknown_product`.
    public var code: String
    /// What went wrong, for a person.
    public var message: String
    /// The HTTP status the emulator answers with.
    public var status: Int

    /// Creates an error.
    public init(_ code: String, _ message: String, status: Int = 400) {
        self.code = code
        self.message = message
        self.status = status
    }

    public var description: String { "\(code): \(message)" }

    static func unknownProduct(_ productId: String) -> EmulatorError {
        EmulatorError("unknown_product", "the catalog has no product \(productId)", status: 404)
    }

    static func unknownTransaction(_ transactionId: String) -> EmulatorError {
        EmulatorError("unknown_transaction", "no transaction \(transactionId)", status: 404)
    }
}

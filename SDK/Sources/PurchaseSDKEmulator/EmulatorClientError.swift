/// The emulator refused a device request, or answered something this client does not know.
public enum EmulatorClientError: Error, Hashable, Sendable {
    /// The emulator's error answer: HTTP status, its stable code, its message.
    case refused(status: Int, code: String, message: String)
    /// An answer without the fields its outcome needs.
    case unexpectedAnswer
}

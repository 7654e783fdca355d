import PurchaseSDK
import PurchaseSDKEmulator

/// An error as the C ABI reports it: a stable `code` a game can switch on and a `message`
/// a person can act on (`{"code": "...", "message": "..."}`). The codes are listed in
/// `storekeeper_sdk.h`.
struct ABIError: Error, Encodable, Sendable {
    /// The stable code.
    var code: String
    /// What went wrong, for a person.
    var message: String

    static func invalidArgument(_ message: String) -> ABIError { ABIError(code: "invalid_argument", message: message) }
    static func invalidUTF8(_ what: String) -> ABIError {
        ABIError(code: "invalid_utf8", message: "\(what) is not valid UTF-8")
    }
    static func invalidJSON(_ what: String) -> ABIError {
        ABIError(code: "invalid_json", message: "\(what) is not a JSON object")
    }

    /// The ABI error standing for whatever a call to the pipeline or the store threw.
    init(_ error: any Error) {
        switch error {
        case let error as ABIError: self = error
        case PurchaseError.noPlayerSignedIn:
            self.init(code: "no_player_signed_in", message: "sign a player in (signIn) before buying")
        case PurchaseError.notRunning:
            self.init(code: "not_running", message: "the pipeline is not running: call start first (once)")
        case PurchaseError.storeUnavailable:
            self.init(code: "store_error", message: "the store could not list the account's transactions")
        case let error as DecodingError:
            self.init(code: "invalid_params", message: Self.describe(error))
        case is EmulatorClientError:
            self.init(code: "store_error", message: "the store failed: \(error)")
        case ServerCallError.retryable(let reason, _):
            self.init(
                code: "server_unreachable",
                message: "the purchase server did not answer (\(reason)); call again when it is back")
        case ServerCallError.rejected(let reason, let message):
            self.init(code: "server_refused", message: "\(reason): \(message)")
        case is JournalError:
            self.init(code: "journal_error", message: "the journal could not be used: \(error)")
        default:
            self.init(code: "internal", message: "\(error)")
        }
    }

    init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \(path(context.codingPath + [key]))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong type for \(path(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "invalid value at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the top level" : "`" + keys.map(\.stringValue).joined(separator: ".") + "`"
    }
}

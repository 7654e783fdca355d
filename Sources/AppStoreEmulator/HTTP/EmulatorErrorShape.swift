import AppStoreModel
import Hummingbird
import PlayModel

/// How an error looks on each of the emulator's APIs, decided by the request's path.
enum EmulatorErrorShape: Equatable {
    /// `{production,sandbox}/verifyReceipt`: Apple's `{"status": 21000}`.
    case verifyReceipt
    /// Everything else under `/production` and `/sandbox`: Apple's Server API
    /// `{"errorCode": …, "errorMessage": …}`.
    case serverAPI
    /// `/emulator/...`: the emulator's `{"error": code, "message": …}`.
    case emulator
    /// `/androidpublisher/...`: Google's `{"error": {"code", "message", "status", "errors"}}`.
    case google

    /// The shape of the emulator's answers on `path`; `nil` for a path outside the
    /// emulator's prefixes (another application's routes on the same router).
    init?(path: String) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        switch segments.first {
        case "production", "sandbox":
            self = segments.count == 2 && segments[1] == "verifyReceipt" ? .verifyReceipt : .serverAPI
        case "emulator":
            self = .emulator
        case "androidpublisher":
            self = .google
        default:
            return nil
        }
    }

    /// An error answer in this shape: `code` is the emulator's code; the Server API uses
    /// Apple's general codes (4000000 for a 4xx, 5000000 for a 5xx) and verifyReceipt its
    /// status 21000 ("the request was not an HTTP POST, or its JSON could not be read").
    func response(status: HTTPResponse.Status, code: String, message: String) -> Response {
        switch self {
        case .verifyReceipt:
            JSONResponse.make(VerifyReceiptResponse(status: .invalidRequest), status: status)
        case .serverAPI:
            JSONResponse.make(
                APIErrorResponse(
                    errorCode: status.code >= 500 ? .generalInternal : .generalBadRequest, errorMessage: message),
                status: status
            )
        case .emulator:
            JSONResponse.error(EmulatorError(code, message, status: status.code))
        case .google:
            JSONResponse.make(
                GoogleErrorResponse(
                    error: GoogleError(
                        code: status.code, message: message,
                        status: status == .notFound ? "NOT_FOUND" : status == .methodNotAllowed ? nil : "UNKNOWN",
                        errors: [
                            GoogleErrorDetail(
                                domain: "global", reason: status == .notFound ? "notFound" : "badRequest",
                                message: message)
                        ])),
                status: status)
        }
    }
}

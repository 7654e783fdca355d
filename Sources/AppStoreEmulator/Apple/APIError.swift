import AppStoreModel

/// A Server API failure, answered as Apple does: an HTTP status and
/// `{"errorCode": …, "errorMessage": …}`.
public struct APIError: Error, Sendable {
    /// The HTTP status.
    public var status: Int
    /// The body: Apple's error code and a message for a person.
    public var body: APIErrorResponse

    init(status: Int, code: APIErrorCode, _ message: String) {
        self.status = status
        self.body = APIErrorResponse(errorCode: code, errorMessage: message)
    }

    /// 404 with 4040010: `environment` knows no transaction with this id.
    static func transactionNotFound(_ transactionId: String) -> APIError {
        APIError(status: 404, code: .transactionIdNotFound, "transaction \(transactionId) not found")
    }

    /// 400 with Apple's 4000000 and Apple's name for the error in the message: for the errors
    /// Apple documents without publishing their number.
    static func unnumbered(_ appleName: String, _ message: String) -> APIError {
        APIError(status: 400, code: .generalBadRequest, "\(appleName): \(message)")
    }
}

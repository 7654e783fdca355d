/// The JSON body of an App Store Server API error: `{"errorCode": 4040010,
/// "errorMessage": "Transaction id not found."}`.
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct APIErrorResponse: Hashable, Codable, Sendable {
    /// Apple's numeric error code.
    public var errorCode: APIErrorCode?
    /// Apple's description of the error, for a person.
    public var errorMessage: String?

    /// Creates an error body.
    public init(errorCode: APIErrorCode? = nil, errorMessage: String? = nil) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
}

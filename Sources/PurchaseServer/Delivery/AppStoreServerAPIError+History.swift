import AppStoreAPI

extension AppStoreServerAPIError {
    /// Apple's answer as history-event detail: `error` (the kind), `httpStatus`,
    /// `errorCode` and `errorMessage` when Apple sent them, the `message`, and whether the
    /// same call may succeed later (`retryable`).
    var historyDetail: [String: String] {
        var detail = [
            "error": kind.rawValue, "message": String(message.prefix(500)), "retryable": isRetryable ? "true" : "false",
        ]
        detail["httpStatus"] = httpStatus.map(String.init)
        detail["errorCode"] = errorCode.map { String($0.rawValue) }
        detail["errorMessage"] = errorMessage.map { String($0.prefix(500)) }
        return detail
    }
}

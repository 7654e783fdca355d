import PlayModel

/// The Android Publisher API's error answers, in Google's envelope, with Google's messages
/// and reasons where Google documents or is known to give them.
enum GoogleErrors {
    /// 401: no `Authorization: Bearer` header.
    static let loginRequired = GoogleErrorResponse(
        error: GoogleError(
            code: 401,
            message:
                "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie "
                + "or other valid authentication credential. "
                + "See https://developers.google.com/identity/sign-in/web/devconsole-project.",
            status: "UNAUTHENTICATED",
            errors: [
                GoogleErrorDetail(
                    domain: "global", reason: "required", message: "Login Required.", location: "Authorization",
                    locationType: "header")
            ]))

    /// 401: a bearer token the emulator did not issue, or one that expired.
    static let invalidCredentials = GoogleErrorResponse(
        error: GoogleError(
            code: 401,
            message:
                "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie "
                + "or other valid authentication credential. "
                + "See https://developers.google.com/identity/sign-in/web/devconsole-project.",
            status: "UNAUTHENTICATED",
            errors: [
                GoogleErrorDetail(
                    domain: "global", reason: "authError", message: "Invalid Credentials", location: "Authorization",
                    locationType: "header")
            ]))

    /// 404: the package name is not the emulator's app.
    static func applicationNotFound() -> GoogleErrorResponse {
        parameterError(
            404, "NOT_FOUND", domain: "androidpublisher", reason: "applicationNotFound",
            "No application was found for the given package name.", parameter: "packageName")
    }

    /// 404: no purchase has this token.
    static func purchaseTokenNotFound() -> GoogleErrorResponse {
        parameterError(
            404, "NOT_FOUND", domain: "global", reason: "notFound", "The purchase token was not found.",
            parameter: "token")
    }

    /// 400: the token is another product's purchase.
    static func tokenDoesNotMatchProduct() -> GoogleErrorResponse {
        parameterError(
            400, "INVALID_ARGUMENT", domain: "androidpublisher", reason: "purchaseTokenDoesNotMatchProductId",
            "The purchase token does not match the product ID.", parameter: "token")
    }

    /// 400: acknowledging or consuming a purchase that is pending, canceled or (for
    /// consume, and acknowledge after it) already consumed.
    static func invalidPurchaseState() -> GoogleErrorResponse {
        parameterError(
            400, "FAILED_PRECONDITION", domain: "androidpublisher", reason: "invalidPurchaseState",
            "The purchase is not in a valid state to perform the desired operation.", parameter: "token")
    }

    /// An error about one path parameter: Google's envelope with one detail that names it.
    private static func parameterError(
        _ code: Int, _ status: String, domain: String, reason: String, _ message: String, parameter: String
    ) -> GoogleErrorResponse {
        GoogleErrorResponse(
            error: GoogleError(
                code: code, message: message, status: status,
                errors: [
                    GoogleErrorDetail(
                        domain: domain, reason: reason, message: message, location: parameter,
                        locationType: "parameter")
                ]))
    }

    /// 400: a request body that is not the JSON the method takes.
    static func invalidBody(_ detail: String) -> GoogleErrorResponse {
        let message = "Invalid JSON payload received. \(detail)"
        return GoogleErrorResponse(
            error: GoogleError(
                code: 400, message: message, status: "INVALID_ARGUMENT",
                errors: [GoogleErrorDetail(domain: "global", reason: "badRequest", message: message)]))
    }

    /// 404: a method the path's last segment names that the API does not have.
    static func unknownMethod(_ path: String) -> GoogleErrorResponse {
        let message = "The requested URL \(path) was not found on this server."
        return GoogleErrorResponse(
            error: GoogleError(
                code: 404, message: message, status: "NOT_FOUND",
                errors: [GoogleErrorDetail(domain: "global", reason: "notFound", message: message)]))
    }
}

extension GoogleErrors {
    /// 404: no order has this id.
    static func orderNotFound() -> GoogleErrorResponse {
        let message = "The order ID was not found."
        return GoogleErrorResponse(
            error: GoogleError(
                code: 404, message: message, status: "NOT_FOUND",
                errors: [
                    GoogleErrorDetail(
                        domain: "global", reason: "notFound", message: message, location: "orderId",
                        locationType: "parameter")
                ]))
    }

    /// 400: a query parameter whose value the method does not take.
    static func invalidParameter(_ name: String, _ message: String) -> GoogleErrorResponse {
        GoogleErrorResponse(
            error: GoogleError(
                code: 400, message: message, status: "INVALID_ARGUMENT",
                errors: [
                    GoogleErrorDetail(
                        domain: "global", reason: "invalid", message: message, location: name,
                        locationType: "parameter")
                ]))
    }
}

extension GoogleErrors {
    /// 503: the change could not be saved (a full disk) and was not made; Google's answer
    /// to a backend that cannot serve the request now, which clients retry.
    static func storageUnavailable(_ error: any Error) -> GoogleErrorResponse {
        let message = "The service is currently unavailable."
        return GoogleErrorResponse(
            error: GoogleError(
                code: 503, message: message, status: "UNAVAILABLE",
                errors: [GoogleErrorDetail(domain: "global", reason: "backendError", message: message)]))
    }
}

import Foundation
import PlayModel
import Testing

@Suite struct GoogleErrorResponseTests {
    /// Google's answer to a call without credentials.
    @Test func decodesGooglesUnauthenticatedError() throws {
        let json = """
            {
              "error": {
                "code": 401,
                "message": "Request is missing required authentication credential.",
                "errors": [
                  {
                    "message": "Login Required.",
                    "domain": "global",
                    "reason": "required",
                    "location": "Authorization",
                    "locationType": "header"
                  }
                ],
                "status": "UNAUTHENTICATED"
              }
            }
            """
        let response = try JSONDecoder().decode(GoogleErrorResponse.self, from: Data(json.utf8))
        #expect(response.error.code == 401)
        #expect(response.error.status == "UNAUTHENTICATED")
        #expect(
            response.error.errors == [
                GoogleErrorDetail(
                    domain: "global", reason: "required", message: "Login Required.", location: "Authorization",
                    locationType: "header")
            ])
    }

    /// The Android Publisher's answer to acknowledging a purchase in the wrong state.
    @Test func decodesAnAndroidPublisherError() throws {
        let json = """
            {"error": {"code": 400, "message": "The purchase is not in a valid state to perform the desired operation.",
             "errors": [{"message": "The purchase is not in a valid state to perform the desired operation.",
             "domain": "androidpublisher", "reason": "invalidPurchaseState", "location": "token",
             "locationType": "parameter"}]}}
            """
        let response = try JSONDecoder().decode(GoogleErrorResponse.self, from: Data(json.utf8))
        #expect(response.error.code == 400)
        #expect(response.error.status == nil)
        #expect(response.error.errors?.first?.reason == "invalidPurchaseState")
        #expect(response.error.errors?.first?.domain == "androidpublisher")
    }

    @Test func encodesWithGooglesFieldNames() throws {
        let response = GoogleErrorResponse(
            error: GoogleError(
                code: 404, message: "not found", status: "NOT_FOUND",
                errors: [GoogleErrorDetail(domain: "global", reason: "notFound", message: "not found")]))
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(response)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(Set(error.keys) == ["code", "message", "status", "errors"])
        let detail = try #require((error["errors"] as? [[String: Any]])?.first)
        #expect(Set(detail.keys) == ["domain", "reason", "message"])
    }
}

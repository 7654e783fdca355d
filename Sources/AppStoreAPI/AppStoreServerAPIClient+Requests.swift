import AppStoreModel
import Foundation

extension AppStoreServerAPIClient {
    /// The request for a path, with a fresh bearer token and, when `body` is given, its
    /// JSON.
    func makeRequest(
        _ method: HTTPRequestMethod, _ path: [String], query: [(name: String, value: String)], body: Data?
    ) throws(AppStoreServerAPIError) -> HTTPRequestData {
        guard let url = baseURL.appendingAPIPath(path, query: query) else {
            throw AppStoreServerAPIError(
                kind: .invalidRequest, message: "cannot append /\(path.joined(separator: "/")) to the base URL")
        }
        let token: String
        do {
            token = try key.makeToken(issuedAt: now(), lifetime: tokenLifetime)
        } catch {
            throw AppStoreServerAPIError(kind: .invalidRequest, message: "cannot make the bearer token: \(error)")
        }
        var headers = ["Authorization": "Bearer " + token, "Accept": "application/json"]
        if body != nil {
            headers["Content-Type"] = "application/json"
        }
        return HTTPRequestData(method: method, url: url, headers: headers, body: body)
    }

    /// Sends a request and returns the 2xx response; throws for anything else.
    func perform(
        _ method: HTTPRequestMethod, _ path: [String], query: [(name: String, value: String)] = [],
        body: (some Encodable & Sendable)?
    ) async throws(AppStoreServerAPIError) -> HTTPResponseData {
        var bodyData: Data?
        if let body {
            do {
                bodyData = try APIJSON.encode(body)
            } catch {
                throw AppStoreServerAPIError(kind: .invalidRequest, message: "cannot encode the body: \(error)")
            }
        }
        let request = try makeRequest(method, path, query: query, body: bodyData)
        let response: HTTPResponseData
        do {
            response = try await transport.send(request)
        } catch {
            throw AppStoreServerAPIError(kind: .transportFailed, message: "\(error)")
        }
        guard response.isSuccess else { throw AppStoreServerAPIError.http(response) }
        return response
    }

    /// Sends a request with a JSON body and decodes the 2xx response.
    func send<Response: Decodable>(
        _ method: HTTPRequestMethod, _ path: [String], query: [(name: String, value: String)] = [],
        body: (some Encodable & Sendable)?, decoding type: Response.Type
    ) async throws(AppStoreServerAPIError) -> Response {
        let response = try await perform(method, path, query: query, body: body)
        do {
            return try APIJSON.decode(type, from: response.body)
        } catch {
            throw AppStoreServerAPIError(
                kind: .undecodableResponse, httpStatus: response.status,
                message: "not a \(Response.self): \(error)")
        }
    }

    /// Sends a request without a body and decodes the 2xx response.
    func send<Response: Decodable>(
        _ method: HTTPRequestMethod, _ path: [String], query: [(name: String, value: String)] = [],
        decoding type: Response.Type
    ) async throws(AppStoreServerAPIError) -> Response {
        try await send(method, path, query: query, body: Optional<NoBody>.none, decoding: type)
    }

    /// The type of an absent body.
    struct NoBody: Encodable, Sendable {}
}

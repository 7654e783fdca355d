import AsyncHTTPClient
import Foundation

/// JSON over HTTP for the load test: one shared `HTTPClient` with a connection per worker.
struct LoadTestClient: Sendable {
    /// A failed call, described by its kind (the key errors are counted under).
    struct Failure: Error {
        var kind: String
    }

    /// The HTTP methods the load test sends.
    enum Method: Sendable {
        case get, put, post
    }

    /// The base URL, without a trailing slash.
    let baseURL: String
    let http: HTTPClient

    /// A client whose pool keeps up to `connections` connections to the server.
    init(baseURL: String, connections: Int) {
        self.baseURL = baseURL
        var configuration = HTTPClient.Configuration(
            timeout: .init(connect: .seconds(5), read: .seconds(30)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        )
        configuration.decompression = .disabled
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Closes the connections.
    func shutdown() async throws {
        try await http.shutdown()
    }

    /// POSTs `body` as JSON to `path` and decodes a 2xx answer as `Answer`.
    ///
    /// - Throws: ``Failure`` whose kind names the step (`step`), and the HTTP status
    ///   with the `error` code of the answer, a transport error, or an undecodable answer.
    func post<Body: Encodable, Answer: Decodable>(
        _ path: String, _ body: Body, bearer: String? = nil, step: String, as: Answer.Type
    ) async throws(Failure) -> Answer {
        let encoded: Data
        do {
            encoded = try JSONEncoder().encode(body)
        } catch {
            throw Failure(kind: "\(step): unencodable body")
        }
        let (status, bytes) = try await send(.post, path, body: encoded, bearer: bearer, step: step)
        do {
            return try JSONDecoder().decode(Answer.self, from: bytes)
        } catch {
            throw Failure(kind: "\(step): undecodable answer (HTTP \(status))")
        }
    }

    /// Sends `method` to `path` with an optional raw JSON `body` and returns a 2xx
    /// answer's status and body, undecoded.
    ///
    /// - Throws: ``Failure`` naming `step` and the HTTP status with the answer's `error`
    ///   code, or a transport error.
    func send(
        _ method: Method, _ path: String, body: Data? = nil, bearer: String? = nil, step: String
    ) async throws(Failure) -> (status: UInt, body: Data) {
        var request = HTTPClientRequest(url: baseURL + path)
        switch method {
        case .get: request.method = .GET
        case .put: request.method = .PUT
        case .post: request.method = .POST
        }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(body)
        }
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        let status: UInt
        var bytes = Data()
        do {
            let response = try await http.execute(request, timeout: .seconds(30))
            status = response.status.code
            for try await chunk in response.body { bytes.append(contentsOf: chunk.readableBytesView) }
        } catch {
            throw Failure(kind: "\(step): transport \(Self.describe(error))")
        }
        guard (200..<300).contains(status) else {
            let code = (try? JSONDecoder().decode(ErrorAnswer.self, from: bytes))?.error
            throw Failure(kind: "\(step): HTTP \(status)" + (code.map { " \($0)" } ?? ""))
        }
        return (status, bytes)
    }

    /// A short, stable description of a transport error (no addresses or ids).
    private static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError { return "\(error)" }
        return String(describing: type(of: error))
    }

    /// The `{"error": code}` body of the server's and the emulator's refusals.
    private struct ErrorAnswer: Decodable {
        var error: String
    }
}

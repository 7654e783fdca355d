import Foundation
import PurchaseSDK

/// JSON over HTTP to the emulator.
struct EmulatorHTTP: Sendable {
    let baseURL: URL
    let transport: any NetworkTransport

    func get<Answer: Decodable>(_ path: String) async throws -> Answer {
        try await send(NetworkRequest(method: "GET", url: baseURL.appendingPathComponent(path)))
    }

    func post<Answer: Decodable>(_ path: String, body: some Encodable) async throws -> Answer {
        try await send(
            NetworkRequest(
                method: "POST", url: baseURL.appendingPathComponent(path),
                headers: ["Content-Type": "application/json"], body: try JSONEncoder().encode(body)))
    }

    private func send<Answer: Decodable>(_ request: NetworkRequest) async throws -> Answer {
        let response = try await transport.send(request)
        guard (200..<300).contains(response.status) else {
            let body = try? JSONDecoder().decode(ErrorAnswer.self, from: response.body)
            throw EmulatorClientError.refused(
                status: response.status, code: body?.error ?? "http_\(response.status)", message: body?.message ?? "")
        }
        return try JSONDecoder().decode(Answer.self, from: response.body)
    }

    private struct ErrorAnswer: Decodable {
        var error: String?
        var message: String?
    }
}

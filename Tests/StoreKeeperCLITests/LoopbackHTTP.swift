import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plain HTTP to a `storekeeper` child process on a loopback port.
enum LoopbackHTTP {
    /// Sends a request; the answer's status and body. Throws when no answer arrives
    /// (refused, reset, or 10 s without one).
    static func send(
        port: Int, _ method: String, _ path: String, token: String? = nil, body: String? = nil
    ) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, timeoutInterval: 10)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// Sends a request; the answer's status and JSON object (empty when not an object).
    static func request(
        port: Int, _ method: String, _ path: String, token: String? = nil, body: String? = nil
    ) async throws -> (Int, [String: Any]) {
        let (status, data) = try await send(port: port, method, path, token: token, body: body)
        return (status, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    /// Sends a request; the answer's status and JSON array of objects (empty when not one).
    static func requestList(
        port: Int, _ method: String, _ path: String, body: String? = nil
    ) async throws -> (Int, [[String: Any]]) {
        let (status, data) = try await send(port: port, method, path, body: body)
        return (status, (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? [])
    }

    /// Waits (up to `seconds`) until `GET path` answers 200; whether it did. A debug build
    /// started while the whole suite runs on two cores may take most of a minute.
    static func waitUntilServing(port: Int, _ path: String, seconds: Int = 60) async throws -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while ContinuousClock.now < deadline {
            if let (status, _) = try? await send(port: port, "GET", path), status == 200 { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}

import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback HTTP/1.1 server that answers exactly one request with a fixed response and
/// hands back the raw request: enough to exercise a real transport without other targets.
/// It waits at most 10 seconds for the request.
final class OneShotHTTPServer: Sendable {
    let port: UInt16
    private let socketDescriptor: Int32

    init() throws {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        // accept and read give up after 10 seconds, so a failed test cannot hang.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 1) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        self.socketDescriptor = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(socketDescriptor) }

    /// Accepts one connection, reads one request (head and `Content-Length` body), answers
    /// `response` and closes; returns the request's bytes as text.
    func serveOnce(response: String) async -> String {
        let descriptor = socketDescriptor
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return continuation.resume(returning: "") }
                defer { close(connection) }
                var timeout = timeval(tv_sec: 10, tv_usec: 0)
                setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var received = [UInt8]()
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !Self.isComplete(received) {
                    let count = read(connection, &buffer, buffer.count)
                    guard count > 0 else { break }
                    received += buffer[0..<count]
                }
                let bytes = Array(response.utf8)
                _ = bytes.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                continuation.resume(returning: String(decoding: received, as: UTF8.self))
            }
        }
    }

    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        let lengthLine = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
        let length = lengthLine.flatMap {
            Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        }
        return text[end.upperBound...].utf8.count >= (length ?? 0)
    }
}

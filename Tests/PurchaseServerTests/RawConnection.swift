import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback TCP connection the test writes bytes to as it likes: a request that stalls
/// half-way (slowloris), or one whose body comes later. Closed when released.
final class RawConnection: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Connects to 127.0.0.1:`port`.
    static func open(port: Int) async throws -> RawConnection {
        try await blocking {
            #if canImport(Glibc)
                let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let descriptor = socket(AF_INET, SOCK_STREAM, 0)
                var noSignal: Int32 = 1
                setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
            #endif
            guard descriptor >= 0 else { throw FixtureError("socket failed: errno \(errno)") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(descriptor)
                throw FixtureError("connect failed: errno \(errno)")
            }
            return RawConnection(descriptor: descriptor)
        }
    }

    /// Sends `text` whole.
    func send(_ text: String) async throws {
        let bytes = Array(text.utf8)
        try await Self.blocking { [descriptor] in
            var offset = 0
            while offset < bytes.count {
                #if canImport(Glibc)
                    let sent = bytes[offset...].withUnsafeBytes {
                        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                #else
                    let sent = bytes[offset...].withUnsafeBytes { Darwin.send(descriptor, $0.baseAddress, $0.count, 0) }
                #endif
                guard sent > 0 else { throw FixtureError("send failed: errno \(errno)") }
                offset += sent
            }
        }
    }

    /// Reads until the server closes the connection (a request sent with
    /// `Connection: close`), at most `seconds`; the status of the answer read (0 when none).
    func status(within seconds: Int = 60) async throws -> Int {
        let text = try await Self.blocking { [descriptor] () throws -> String in
            var timeout = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    throw FixtureError("no end of the answer within \(seconds) s")
                }
                if count <= 0 { break }
                received += buffer[0..<count]
            }
            return String(decoding: received, as: UTF8.self)
        }
        let statusLine = text.prefix { $0 != "\r" }.split(separator: " ")
        return statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
    }

    /// Waits until the server closed every one of `connections` (end of stream or reset, with
    /// nothing to read before it), at most `seconds`; how many it closed.
    static func waitUntilClosed(_ connections: [RawConnection], within seconds: Double) async throws -> Int {
        try await blocking {
            var open = Set(connections.map(\.descriptor))
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 256)
            while !open.isEmpty, Date() < deadline {
                var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                let ready = poll(&polled, nfds_t(polled.count), 200)
                guard ready > 0 else { continue }
                for entry in polled where entry.revents != 0 {
                    let count = buffer.withUnsafeMutableBytes {
                        recv(entry.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                    }
                    if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                        open.remove(entry.fd)
                    }
                }
            }
            return connections.count - open.count
        }
    }

    /// Runs blocking socket calls off Swift's cooperative threads.
    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }
}

#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
    import Darwin
    private let streamSocket = SOCK_STREAM
#endif

/// Ports for the `storekeeper` servers the tests start.
enum LoopbackPort {
    /// A port on 127.0.0.1 that nothing is bound to now, below Linux's ephemeral range
    /// (32768–60999 by default), where the kernel never puts the local end of a client
    /// connection: a server restarted on the same port must find it free, and a random port
    /// up there was once taken by one of the suite's own connections.
    static func unused() -> Int {
        while true {
            let port = Int.random(in: 20_000...32_000)
            if canBind(port) { return port }
        }
    }

    /// Whether a socket can bind `port` on 127.0.0.1 at this moment.
    private static func canBind(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

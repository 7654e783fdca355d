import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The address `serve` is to listen on, checked before anything is created: a second
/// server on a port in use says so, and leaves no ledger file or data folder behind.
enum ListeningAddress {
    /// Throws a usage error naming the address when another process listens on `port` of
    /// `host` (an IPv4 address, or `0.0.0.0`). Binding is tried with `SO_REUSEADDR`, as the
    /// server binds, so a port left in `TIME_WAIT` by a stopped server counts as free.
    static func checkFree(host: String, port: Int) throws {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return }  // the server's own bind will say what is wrong
        defer { close(descriptor) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return }  // a name: NIO resolves it
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound != 0, errno == EADDRINUSE else { return }
        throw ValidationError(
            "\(host):\(port) is already in use (another storekeeper serve?): stop it, or choose another --port")
    }
}

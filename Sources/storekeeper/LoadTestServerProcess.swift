import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The purchase server's process, whose CPU time the load test reads: the one given with
/// `--server-pid`, or the one listening on the URL's port when the URL's host is this
/// machine's loopback.
struct LoadTestServerProcess: Sendable {
    /// The server's pid; `nil` when it is unknown.
    var pid: Int32?
    /// How the pid was found (`--server-pid`, `the listener on port 8311`), or why it is
    /// unknown.
    var note: String

    /// The server of `url`: `given` when set, otherwise the process found listening on the
    /// URL's port (80 or 443 by default) if its host is loopback.
    static func resolve(url: String, given: Int32?) -> LoadTestServerProcess {
        if let given { return LoadTestServerProcess(pid: given, note: "--server-pid") }
        guard let parsed = URL(string: url), let host = parsed.host else {
            return LoadTestServerProcess(pid: nil, note: "the URL has no host; pass --server-pid")
        }
        guard isLoopback(host) else {
            return LoadTestServerProcess(pid: nil, note: "\(host) is not this machine's loopback; pass --server-pid")
        }
        let port = parsed.port ?? (parsed.scheme == "https" ? 443 : 80)
        let pids = ProcessCPUListener.pids(listeningOn: port)
        switch pids.count {
        case 1:
            return LoadTestServerProcess(pid: pids[0], note: "the listener on port \(port)")
        case 0:
            return LoadTestServerProcess(
                pid: nil, note: "no process this user can see listens on port \(port); pass --server-pid")
        default:
            let list = pids.map(String.init).joined(separator: ", ")
            return LoadTestServerProcess(
                pid: nil, note: "several processes listen on port \(port) (\(list)); pass --server-pid")
        }
    }

    /// Whether `host` names this machine's loopback: `localhost`, an IPv4 address in
    /// 127.0.0.0/8 or the IPv6 `::1` (with or without brackets).
    static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, name, &ipv4) == 1 { return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127 }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, name, &ipv6) == 1 else { return false }
        return withUnsafeBytes(of: &ipv6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }
}

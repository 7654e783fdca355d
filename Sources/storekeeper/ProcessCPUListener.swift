import Foundation

/// Finds the process that listens on a local TCP port (the server whose CPU time the load
/// test reads), from Linux's `/proc`: the listening sockets' inodes in `/proc/net/tcp` and
/// `/proc/net/tcp6`, then the processes whose open files (`/proc/<pid>/fd/*`, links
/// such as `socket:[12345]`) include one of them.
///
/// Only the processes whose `fd` folder this user may read are seen (for an unprivileged
/// user, its own).
enum ProcessCPUListener {
    /// The state `/proc/net/tcp` gives a listening socket (`TCP_LISTEN`).
    private static let listenState = "0A"

    /// The pids, ascending, of the processes holding a socket that listens on TCP `port`
    /// (IPv4 or IPv6, any local address); empty when none is seen.
    static func pids(listeningOn port: Int, procRoot: String = "/proc") -> [Int32] {
        var inodes = Set<UInt64>()
        for table in ["net/tcp", "net/tcp6"] {
            guard let text = LoadTestProcFile.text(procRoot + "/" + table) else { continue }
            inodes.formUnion(listenerInodes(inTable: text, port: port))
        }
        guard !inodes.isEmpty else { return [] }
        return pids(holdingSockets: inodes, procRoot: procRoot)
    }

    /// The inodes of the sockets that `table`, the text of `/proc/net/tcp` or
    /// `/proc/net/tcp6`, lists as listening on `port`.
    ///
    /// A row is `sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid
    /// timeout inode …`, the local address being `ADDRESS:PORT` in hexadecimal. The header
    /// and any row that does not parse are skipped.
    static func listenerInodes(inTable table: String, port: Int) -> Set<UInt64> {
        var inodes = Set<UInt64>()
        for row in table.split(whereSeparator: \.isNewline) {
            let fields = row.split(whereSeparator: \.isWhitespace)
            guard fields.count > 9, fields[3] == listenState,
                let portText = fields[1].split(separator: ":").last, let localPort = Int(portText, radix: 16),
                localPort == port, let inode = UInt64(fields[9]), inode != 0
            else { continue }
            inodes.insert(inode)
        }
        return inodes
    }

    /// The inode of the socket that an open file's link target names (`socket:[12345]`);
    /// `nil` for anything else (`pipe:[7]`, a path).
    static func socketInode(linkTarget: String) -> UInt64? {
        let prefix = "socket:["
        guard linkTarget.hasPrefix(prefix), linkTarget.hasSuffix("]") else { return nil }
        return UInt64(linkTarget.dropFirst(prefix.count).dropLast())
    }

    /// The pids, ascending, of the processes with an open file that is one of the sockets
    /// `inodes`; processes that end or cannot be read meanwhile are skipped.
    static func pids(holdingSockets inodes: Set<UInt64>, procRoot: String = "/proc") -> [Int32] {
        let files = FileManager.default
        guard let entries = try? files.contentsOfDirectory(atPath: procRoot) else { return [] }
        var found: [Int32] = []
        for entry in entries {
            guard let pid = Int32(entry), pid > 0,
                let descriptors = try? files.contentsOfDirectory(atPath: "\(procRoot)/\(entry)/fd")
            else { continue }
            let holds = descriptors.contains { descriptor in
                guard let target = try? files.destinationOfSymbolicLink(atPath: "\(procRoot)/\(entry)/fd/\(descriptor)")
                else { return false }
                return socketInode(linkTarget: target).map(inodes.contains) ?? false
            }
            if holds { found.append(pid) }
        }
        return found.sorted()
    }
}

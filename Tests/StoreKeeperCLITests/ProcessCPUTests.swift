import Foundation
import Testing

@testable import storekeeper

#if canImport(Glibc)
    import Glibc
    /// Close-on-exec: a child process the other tests start meanwhile must not inherit the
    /// listener, or two processes would hold it.
    private let streamSocket = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
#endif

/// What `storekeeper loadtest` reads from Linux's `/proc`: CPU time, load average, and the
/// process listening on the server's port.
struct ProcessCPUTests {
    @Test func parsesAStatLineWhoseNameHoldsSpacesAndParentheses() throws {
        // Fields 14 (utime) = 1234, 15 (stime) = 567, 22 (starttime) = 98765.
        let line =
            "4242 (my (odd) name) x) S 1 4242 4242 0 -1 4194560 1500 0 3 0 1234 567 8 9 20 0 12 0 98765 "
            + "123456789 2345 18446744073709551615 1 1 0 0 0 0 0 4096 17242 0 0 0 17 1 0 0 0 0 0\n"
        let time = try #require(ProcessCPUTime(statLine: line))
        #expect(time.userTicks == 1234)
        #expect(time.systemTicks == 567)
        #expect(time.startTicks == 98765)
        #expect(time.ticks == 1801)
    }

    @Test func refusesOddStatText() {
        #expect(ProcessCPUTime(statLine: "") == nil)
        #expect(ProcessCPUTime(statLine: "4242 no parentheses S 1 2 3") == nil)
        #expect(ProcessCPUTime(statLine: "4242 (short) S 1 2 3 4 5 6 7 8 9 10 11 12") == nil)
        let notANumber = "1 (x) S 1 1 1 0 -1 0 0 0 0 0 12x 5 0 0 20 0 1 0 777 0 0"
        #expect(ProcessCPUTime(statLine: notANumber) == nil)
        let negative = "1 (x) S 1 1 1 0 -1 0 0 0 0 0 -12 5 0 0 20 0 1 0 777 0 0"
        #expect(ProcessCPUTime(statLine: negative) == nil)
    }

    @Test func cpuTimeOfTheSameProcessOnly() throws {
        let earlier = try #require(ProcessCPUTime(statLine: Self.stat(user: 100, system: 50, start: 9)))
        let later = try #require(ProcessCPUTime(statLine: Self.stat(user: 300, system: 150, start: 9)))
        let perSecond = try #require(ProcessCPUTime.ticksPerSecond)
        #expect(later.seconds(since: earlier) == 300 / Double(perSecond))
        let reused = try #require(ProcessCPUTime(statLine: Self.stat(user: 300, system: 150, start: 10)))
        #expect(reused.seconds(since: earlier) == nil, "another process with the same pid")
        #expect(earlier.seconds(since: later) == nil, "time going backwards")
    }

    @Test func readsThisProcesssCPUTimeAsItWorks() throws {
        let before = try #require(ProcessCPUTime.read(pid: nil))
        let byPid = try #require(ProcessCPUTime.read(pid: getpid()))
        #expect(byPid.startTicks == before.startTicks)
        // Spin until the kernel has counted at least two ticks more (20 ms at 100 per second).
        var after = before
        var spins: UInt64 = 0
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        while after.ticks < before.ticks + 2, clock.now < deadline {
            for value in 0..<100_000 { spins &+= UInt64(value) &* 31 }
            after = try #require(ProcessCPUTime.read(pid: nil))
        }
        #expect(spins != 1)
        let seconds = try #require(after.seconds(since: before))
        #expect(seconds > 0)
        #expect(ProcessCPUTime.read(pid: Int32.max) == nil, "no such process")
    }

    @Test func parsesTheLoadAverage() throws {
        let load = try #require(LoadTestLoadAverage(loadavg: "0.52 1.58 12.59 3/389 12345\n"))
        #expect([load.oneMinute, load.fiveMinutes, load.fifteenMinutes] == [0.52, 1.58, 12.59])
        #expect(LoadTestLoadAverage(loadavg: "") == nil)
        #expect(LoadTestLoadAverage(loadavg: "0.5 nan 1.0 1/2 3") == nil)
        #expect(LoadTestLoadAverage(loadavg: "0.5 x 1.0 2.0") == nil)
        #expect(LoadTestLoadAverage.read() != nil)
    }

    @Test func findsListeningSocketsInATcpTable() {
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:20CB 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5001 1 0
               1: 00000000:20CB 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5002 1 0
               2: 0100007F:20CB 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 5003 1 0
               3: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5004 1 0
               4: 0100007F:20CB 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 0 1 0
               5: 0100007F:ZZZZ 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5005 1 0
               6: garbage
            """
        // 0x20CB = 8395: the two listeners, not the connection (state 01), not port 8080
        // (0x1F90), not an inode of 0 or an unreadable port.
        #expect(ProcessCPUListener.listenerInodes(inTable: table, port: 8395) == [5001, 5002])
        #expect(ProcessCPUListener.listenerInodes(inTable: table, port: 8080) == [5004])
        #expect(ProcessCPUListener.listenerInodes(inTable: "", port: 8395).isEmpty)
    }

    @Test func readsSocketInodesFromDescriptorLinks() {
        #expect(ProcessCPUListener.socketInode(linkTarget: "socket:[123456]") == 123_456)
        #expect(ProcessCPUListener.socketInode(linkTarget: "pipe:[123456]") == nil)
        #expect(ProcessCPUListener.socketInode(linkTarget: "socket:[12x]") == nil)
        #expect(ProcessCPUListener.socketInode(linkTarget: "socket:[]") == nil)
        #expect(ProcessCPUListener.socketInode(linkTarget: "/dev/null") == nil)
    }

    @Test func findsThisProcessListeningOnIPv4() throws {
        let (descriptor, port) = try #require(Self.listen(ipv6: false))
        defer { close(descriptor) }
        #expect(ProcessCPUListener.pids(listeningOn: port) == [getpid()])
        let server = LoadTestServerProcess.resolve(url: "http://127.0.0.1:\(port)/", given: nil)
        #expect(server.pid == getpid(), "\(server.note)")
        #expect(server.note == "the listener on port \(port)")
    }

    @Test func findsThisProcessListeningOnIPv6() throws {
        guard let (descriptor, port) = Self.listen(ipv6: true) else { return }  // no IPv6 loopback here
        defer { close(descriptor) }
        #expect(ProcessCPUListener.pids(listeningOn: port) == [getpid()])
        let server = LoadTestServerProcess.resolve(url: "http://[::1]:\(port)", given: nil)
        #expect(server.pid == getpid(), "\(server.note)")
        #expect(server.note == "the listener on port \(port)")
    }

    @Test func reportsTheServerUnknownWithoutFailing() throws {
        // A port nobody listens on: bound, then closed.
        let (descriptor, port) = try #require(Self.listen(ipv6: false))
        close(descriptor)
        let nobody = LoadTestServerProcess.resolve(url: "http://localhost:\(port)", given: nil)
        #expect(nobody.pid == nil)
        #expect(nobody.note.contains("--server-pid"))
        let remote = LoadTestServerProcess.resolve(url: "http://192.0.2.1:8080", given: nil)
        #expect(remote.pid == nil)
        #expect(remote.note.contains("not this machine's loopback"))
        #expect(LoadTestServerProcess.resolve(url: "http://192.0.2.1:8080", given: 77).pid == 77)

        let cpu = LoadTestCPUMeter(server: nobody).stop(deliveries: 10)
        #expect(cpu.serverSeconds == nil)
        #expect(cpu.serverMicrosecondsPerDelivery == nil)
        #expect(cpu.loadGeneratorSeconds != nil)
        let gone = LoadTestCPUMeter(server: LoadTestServerProcess(pid: Int32.max, note: "--server-pid"))
        #expect(gone.stop(deliveries: 10).serverNote.contains("could not be read"))
    }

    @Test func knowsLoopbackHosts() {
        for host in ["localhost", "LOCALHOST", "127.0.0.1", "127.8.9.10", "::1", "[::1]"] {
            #expect(LoadTestServerProcess.isLoopback(host), "\(host)")
        }
        for host in ["example.com", "10.0.0.1", "128.0.0.1", "::2", "[::]", "", "127.0.0", "localhost.example"] {
            #expect(!LoadTestServerProcess.isLoopback(host), "\(host)")
        }
    }

    /// A `/proc/<pid>/stat` line with the given utime, stime and starttime.
    private static func stat(user: Int, system: Int, start: Int) -> String {
        "7 (worker) S 1 7 7 0 -1 0 0 0 0 0 \(user) \(system) 0 0 20 0 1 0 \(start) 0 0 0"
    }

    /// A socket listening on an ephemeral loopback port (IPv4 or IPv6) and its port; `nil`
    /// when it cannot be made.
    private static func listen(ipv6: Bool) -> (Int32, Int)? {
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { return nil }
        var storage = sockaddr_storage()
        var length: socklen_t
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeBytes(of: &address) { source in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeBytes(of: &address) { source in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
            }
        }
        let bound = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 }
        }
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound, named, Glibc.listen(descriptor, 8) == 0 else {
            close(descriptor)
            return nil
        }
        let port = withUnsafeBytes(of: &storage) { bytes in
            // sin_port and sin6_port are both at offset 2, in network byte order.
            Int(UInt16(bytes[2]) << 8 | UInt16(bytes[3]))
        }
        return (descriptor, port)
    }
}

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `storekeeper emulator` as a subprocess on a free 127.0.0.1 port, on a fresh data
/// directory. The binary is `$STOREKEEPER_BINARY`, or `../.build/debug/storekeeper`
/// relative to the SDK package.
final class EmulatorProcess: @unchecked Sendable {
    // @unchecked Sendable: `process` and the URLs are set in init and only read after.
    let url: URL
    let directory: URL
    private let process: Process

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sk-emulator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let port = try Self.freePort()
        url = URL(string: "http://127.0.0.1:\(port)")!
        process = Process()
        process.executableURL = Self.binary
        process.arguments = [
            "emulator", "--port", "\(port)", "--data-dir", directory.appendingPathComponent("emulator").path,
            "--time-scale", "0.0001",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if Self.answers(url.appendingPathComponent("emulator/v1/products")) { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        stop()
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the emulator did not start"])
    }

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["STOREKEEPER_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // …/SDK/Tests/StoreKitTests/EmulatorProcess.swift → …/.build/debug/storekeeper
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/storekeeper")
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    private static func answers(_ url: URL) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let status = StatusBox()
        URLSession.shared.dataTask(with: url) { _, response, _ in
            status.set((response as? HTTPURLResponse)?.statusCode ?? 0)
            done.signal()
        }.resume()
        done.wait()
        return status.get() == 200
    }

    private static func freePort() throws -> Int {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// `@unchecked Sendable`: `value` is read and written only while `lock` is held.
final class StatusBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func set(_ value: Int) {
        lock.lock()
        self.value = value
        lock.unlock()
    }
    func get() -> Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// One emulated device: the environment variables StoreKit for Linux reads, set for it.
struct TestDevice {
    let id: String
    let data: URL

    init(_ emulator: EmulatorProcess, name: String = "device") {
        id = "\(name)-\(UUID().uuidString.prefix(8).lowercased())"
        data = emulator.directory.appendingPathComponent(id)
        setenv("STOREKEEPER_STOREKIT_URL", emulator.url.absoluteString, 1)
        setenv("STOREKEEPER_STOREKIT_DEVICE", id, 1)
        setenv("STOREKEEPER_STOREKIT_DATA", data.path, 1)
    }

    var receipt: Data? { try? Data(contentsOf: data.appendingPathComponent("receipt")) }
}

/// Waits until `condition` holds, up to `seconds`.
func eventually(_ seconds: Double = 10, _ condition: @Sendable () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return await condition()
}

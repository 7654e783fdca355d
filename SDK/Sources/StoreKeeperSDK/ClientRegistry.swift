import Foundation

/// The open clients, by handle. An `sk_client *` is a number (1, 2, …) dressed as a pointer,
/// never the address of an object: a closed or made-up handle finds nothing here, so it is
/// answered as closed instead of touching freed memory. Handles are never reused.
///
/// `@unchecked Sendable`: `clients` and `lastHandle` are read and written only while `lock`
/// is held (each method holds it for its whole body), so threads never race on them.
final class ClientRegistry: @unchecked Sendable {
    /// The registry of this process.
    static let shared = ClientRegistry()

    private let lock = NSLock()
    private var clients: [UInt: SDKClient] = [:]
    private var lastHandle: UInt = 0

    /// Registers `client` and returns its handle.
    func add(_ client: SDKClient) -> OpaquePointer {
        lock.lock()
        defer { lock.unlock() }
        lastHandle += 1
        clients[lastHandle] = client
        // lastHandle > 0, so the pointer is never NULL.
        return OpaquePointer(bitPattern: lastHandle)!
    }

    /// The client open under `handle`, or `nil` for NULL, a closed or an unknown handle.
    func client(_ handle: OpaquePointer?) -> SDKClient? {
        guard let handle else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return clients[UInt(bitPattern: handle)]
    }

    /// Forgets `handle` and returns its client, if it was open.
    func remove(_ handle: OpaquePointer?) -> SDKClient? {
        guard let handle else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return clients.removeValue(forKey: UInt(bitPattern: handle))
    }
}

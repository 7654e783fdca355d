import Foundation

/// The emulator devices `SKTestSession.clearTransactions()` moved this process to.
///
/// The emulator deletes nothing, and a device's own transactions stay its own whatever
/// Apple account it is signed in to. So clearing the test environment continues the
/// device named by `STOREKEEPER_STOREKIT_DEVICE` as a fresh emulator device,
/// `<device>.cleared-<random>`, with no transaction, entitlement or subscription: from
/// then on this process's StoreKit calls go to it (``StoreKitConfiguration/current()``).
///
/// `@unchecked Sendable` is safe: `replacements` is read and written only while `lock` is held.
package final class ClearedDevices: @unchecked Sendable {
    package static let shared = ClearedDevices()

    private let lock = NSLock()
    /// `emulator URL|device id` → the device that replaces it.
    private var replacements: [String: String] = [:]

    /// The device StoreKit talks to for `deviceId` on the emulator at `url`.
    package func device(for deviceId: String, at url: URL) -> String {
        lock.lock()
        defer { lock.unlock() }
        return replacements[Self.key(deviceId, url)] ?? deviceId
    }

    /// Replaces `deviceId` at `url` by a fresh device, and answers its id.
    package func replace(_ deviceId: String, at url: URL) -> String {
        let fresh = "\(deviceId).cleared-\(UUID().uuidString.prefix(8).lowercased())"
        lock.lock()
        defer { lock.unlock() }
        replacements[Self.key(deviceId, url)] = fresh
        return fresh
    }

    private static func key(_ deviceId: String, _ url: URL) -> String {
        "\(url.absoluteString)|\(deviceId)"
    }
}

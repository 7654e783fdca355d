import Foundation

/// A bounded map from the bytes of a certificate chain to the outcome of validating it.
///
/// A stream of data from one signer then costs one signature check per item instead of
/// a chain validation. Only successful validations are stored. When full, the entry
/// stored first is dropped.
final class VerifiedChainCache<Key: Hashable & Sendable, Entry: Sendable>: @unchecked Sendable {
    // @unchecked Sendable is safe: the only stored mutable state is `entries` and
    // `insertionOrder`, and every access to them happens inside `lock.withLock`; `lock`
    // and `capacity` are immutable after init. Keys and entries are Sendable values.
    private let lock = NSLock()
    private let capacity: Int
    private var entries: [Key: Entry] = [:]
    private var insertionOrder: [Key] = []

    /// Creates a cache holding at most `capacity` chains (at least one).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The entry stored for `key`, if any.
    subscript(key: Key) -> Entry? {
        lock.withLock { entries[key] }
    }

    /// Stores `entry` for `key`, evicting the oldest entry when full.
    func insert(_ entry: Entry, for key: Key) {
        lock.withLock {
            if entries.updateValue(entry, forKey: key) != nil { return }
            insertionOrder.append(key)
            if insertionOrder.count > capacity {
                entries[insertionOrder.removeFirst()] = nil
            }
        }
    }

    /// The number of chains stored.
    var count: Int {
        lock.withLock { entries.count }
    }
}

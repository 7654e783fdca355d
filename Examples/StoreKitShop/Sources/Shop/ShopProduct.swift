import Foundation

/// The shop's product identifiers, as configured in App Store Connect and in
/// `Shop.storekit`.
public enum ShopProduct {
    /// A consumable: 100 gems, credited once per transaction.
    public static let gems100 = "com.example.shop.gems100"
    /// A non-consumable: every level, no ads.
    public static let pro = "com.example.shop.pro"
    /// An auto-renewable subscription (the "Club" group): double gems every day.
    public static let clubMonthly = "com.example.shop.club.monthly"

    /// Every product the shop sells.
    public static let all: Set<String> = [gems100, pro, clubMonthly]

    /// The gems one unit of `productID` credits (0 for anything but gems).
    public static func gems(for productID: String) -> Int {
        productID == gems100 ? 100 : 0
    }
}

/// A change the shop made to what the player owns, reported to `changes()` streams (the
/// UI refreshes on it; the tests wait for it).
public enum ShopChange: Equatable, Sendable {
    /// A transaction was delivered: gems credited, or a product unlocked or renewed.
    case delivered(productID: String, transactionID: UInt64)
    /// A refunded or revoked transaction was taken back.
    case revoked(productID: String, transactionID: UInt64)
    /// A payment waits for a parent's approval (Ask to Buy): nothing delivered yet.
    case waiting(productID: String)
    /// A transaction failed verification: nothing delivered, not finished.
    case rejected(productID: String, transactionID: UInt64)
}

/// Broadcasts ``ShopChange``s to every stream asked for (each listener gets each change).
@MainActor
final class ChangeBroadcaster {
    private var continuations: [UUID: AsyncStream<ShopChange>.Continuation] = [:]

    func stream() -> AsyncStream<ShopChange> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: ShopChange.self)
        continuations[id] = continuation
        continuation.onTermination = { _ in
            Task { @MainActor [weak self] in self?.continuations[id] = nil }
        }
        return stream
    }

    func send(_ change: ShopChange) {
        for continuation in continuations.values { continuation.yield(change) }
    }

    func finish() {
        for continuation in continuations.values { continuation.finish() }
        continuations = [:]
    }
}

import Foundation

/// The payment queue of each ``StoreKitDevice`` (each launch of the app on a device):
/// `SKPaymentQueue.default()` inside its ``StoreKitDevice/run(_:)``, created there on
/// first use.
///
/// `@unchecked Sendable` is safe: `queues` is read and written only while `lock` is held.
final class DeviceQueues: @unchecked Sendable {
    static let shared = DeviceQueues()

    private let lock = NSLock()
    /// Each launch's queue (``StoreKitConfiguration/launch``); held weakly, as the app's
    /// store client holds it.
    private var queues: [UUID: WeakQueue] = [:]

    /// The queue of `device`; call it inside the device's scope, where a new queue takes it.
    func queue(for device: StoreKitConfiguration) -> SKPaymentQueue {
        let launch = device.launch ?? UUID()
        return lock.withLock {
            if let queue = queues[launch]?.queue { return queue }
            queues = queues.filter { $0.value.queue != nil }
            let queue = StoreKitConfiguration.$scoped.withValue(device) { SKPaymentQueue() }
            queues[launch] = WeakQueue(queue: queue)
            return queue
        }
    }

    private struct WeakQueue {
        weak var queue: SKPaymentQueue?
    }
}

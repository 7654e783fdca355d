import Foundation

/// Not Apple's, and not for apps: one emulated device that code can speak for, whatever the
/// process's `STOREKEEPER_STOREKIT_*` variables say, so that one process can run many phones
/// (StoreKeeper's simulation does).
///
/// A value is one launch of the app on the device: StoreKit's memory of the process (the
/// transactions `Transaction.updates` yielded, the payment queue) is its own, and a new
/// value for the same device is the app started again.
///
/// Every StoreKit call made inside ``run(_:)``, and in the tasks created there (not
/// detached ones), goes to this device: `Product`, `Transaction`, `AppStore`, the
/// `SKRequest`s started there, and `SKPaymentQueue.default()`, which answers this
/// device's own queue (its observers, its transactions). The app receipt is at
/// ``receiptURL``.
@_spi(StoreKeeperDevices)
public struct StoreKitDevice: Sendable, Hashable {
    let configuration: StoreKitConfiguration

    /// The device `deviceId` of the emulator at `url` (its root, as
    /// `STOREKEEPER_STOREKIT_URL`), with its local files in `dataDirectory`.
    ///
    /// - Throws: ``StoreKitConfigurationError`` when a value is one the matching
    ///   environment variable would be refused for.
    public init(url: URL, deviceId: String, dataDirectory: URL) throws(StoreKitConfigurationError) {
        var configuration = try StoreKitConfiguration(
            url: url.absoluteString, deviceId: deviceId, dataDirectory: dataDirectory.path)
        configuration.launch = UUID()
        self.configuration = configuration
    }

    /// The device the current task speaks for, if ``run(_:)`` set one.
    public static var current: StoreKitDevice? {
        StoreKitConfiguration.scoped.map { StoreKitDevice(configuration: $0) }
    }

    private init(configuration: StoreKitConfiguration) {
        self.configuration = configuration
    }

    /// The app receipt's file, as `$STOREKEEPER_STOREKIT_DATA/receipt` is the process's.
    public var receiptURL: URL { configuration.receiptURL }

    /// Runs `operation` as this device.
    public func run<Result>(_ operation: () throws -> Result) rethrows -> Result {
        try StoreKitConfiguration.$scoped.withValue(configuration, operation: operation)
    }

    /// Runs `operation` as this device; the tasks it creates (not detached ones) are this
    /// device too.
    public func run<Result>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> Result
    ) async rethrows -> Result {
        try await StoreKitConfiguration.$scoped.withValue(configuration, operation: operation)
    }
}

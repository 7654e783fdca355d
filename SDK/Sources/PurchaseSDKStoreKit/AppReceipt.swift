import Foundation

#if os(Linux)
    @_spi(StoreKeeperDevices) import StoreKit
#endif

/// Where the StoreKit 1 app receipt is: `Bundle.main.appStoreReceiptURL` on Apple's
/// platforms; `$STOREKEEPER_STOREKIT_DATA/receipt` on Linux, where Foundation answers nil
/// for it (the one place StoreKit for Linux differs, docs/storekit-linux.md), or the
/// receipt of the `StoreKitDevice` the task runs as.
enum AppReceipt {
    /// The receipt's file, or `nil` when the platform names none.
    static var url: URL? {
        #if os(Linux)
            StoreKitDevice.current?.receiptURL
                ?? ProcessInfo.processInfo.environment["STOREKEEPER_STOREKIT_DATA"].map {
                    URL(fileURLWithPath: $0).appendingPathComponent("receipt")
                }
        #else
            Bundle.main.appStoreReceiptURL
        #endif
    }

    /// The receipt, base64, or `nil` when the device has none.
    static func read() -> String? {
        guard let url, let data = try? Data(contentsOf: url), !data.isEmpty else { return nil }
        return data.base64EncodedString()
    }
}

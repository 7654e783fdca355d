import Foundation

/// Information about the App Store: on Linux, the StoreKeeper emulator.
///
/// Apple: `enum AppStore` (https://developer.apple.com/documentation/storekit/appstore).
public enum AppStore {
    /// A Boolean value that indicates whether the person can make purchases: `true` when
    /// StoreKit for Linux is configured.
    public static var canMakePayments: Bool {
        (try? StoreKitConfiguration.current()) != nil
    }

    /// Synchronizes your app's transaction information and subscription status with
    /// information from the App Store: asks the emulator for the account's transactions
    /// (its restore) and refreshes the app receipt at `$STOREKEEPER_STOREKIT_DATA/receipt`.
    public static func sync() async throws {
        let client = try StoreKit2Call.client()
        try await StoreKit2Call.run {
            _ = try client.restore()
            try ReceiptFile.refresh(client)
        }
    }

    /// The server environment that generates and signs the transaction.
    ///
    /// Apple: `struct AppStore.Environment`
    /// (https://developer.apple.com/documentation/storekit/appstore/environment).
    public struct Environment: RawRepresentable, Hashable, Sendable {
        public let rawValue: String

        /// Creates an environment from its raw value.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The App Store production environment.
        public static let production = Environment(rawValue: "Production")
        /// The App Store sandbox environment.
        public static let sandbox = Environment(rawValue: "Sandbox")
        /// The StoreKit Testing in Xcode environment.
        public static let xcode = Environment(rawValue: "Xcode")
    }
}

/// How StoreKit 2 API reaches the emulator: configuration errors and emulator refusals
/// become `StoreKitError`s, blocking calls run off the cooperative pool.
package enum StoreKit2Call {
    /// The client for the environment's configuration.
    ///
    /// - Throws: `StoreKitError.systemError(StoreKitConfigurationError)`.
    package static func client() throws(StoreKitError) -> EmulatorClient {
        do {
            return try EmulatorClient.current()
        } catch {
            throw .systemError(error)
        }
    }

    /// Runs blocking emulator calls; an emulator refusal becomes `StoreKitError.systemError`.
    package static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        do {
            return try await EmulatorClient.run(body)
        } catch let error as StoreKitError {
            throw error
        } catch let error as Product.PurchaseError {
            throw error
        } catch {
            throw StoreKitError.systemError(error)
        }
    }
}

/// The app receipt file, `$STOREKEEPER_STOREKIT_DATA/receipt`.
package enum ReceiptFile {
    /// Fetches the device's receipt and writes it (DER), atomically.
    package static func refresh(_ client: EmulatorClient) throws {
        let receipt = try client.receipt()
        try FileManager.default.createDirectory(
            at: client.configuration.dataDirectory, withIntermediateDirectories: true)
        try receipt.write(to: client.configuration.receiptURL, options: .atomic)
    }
}

import Foundation

/// What `sk_open` reads from its `config_json`.
struct ClientConfiguration: Decodable, Sendable {
    /// Which App Store the pipeline buys from (``StoreKitStores`` makes the StoreKit ones).
    enum Store: String, Decodable, Sendable {
        /// StoreKit 2 (the default), through the SDK's StoreKit 2 adapter; on Linux, StoreKit
        /// for Linux, configured by the `STOREKEEPER_STOREKIT_*` environment variables.
        case storekit2
        /// StoreKit 1, through the SDK's StoreKit 1 adapter; on Linux as ``storekit2``.
        case storekit1
        /// The StoreKeeper emulator's device API (`emulatorURL`, `deviceId`), for tests.
        case emulator
        /// The Google Play side of the StoreKeeper emulator (`emulatorURL`, `deviceId`):
        /// Play Billing's purchases, reported to the server as `googlePlay`.
        case playEmulator = "play_emulator"
    }

    /// The game's purchase server.
    var serverURL: URL
    /// Where the journal and the entitlement cache live; created if missing.
    var dataDirectory: String
    /// The store; `storekit2` when absent.
    var store: Store
    /// With `emulator` and `play_emulator`: the emulator's base URL.
    var emulatorURL: URL?
    /// With `emulator` and `play_emulator`: the emulated phone.
    var deviceId: String?
    /// The most events waiting to be polled (default 256).
    var eventQueueCapacity: Int
    /// The server retry backoff's first wait, in milliseconds (default 500).
    var retryInitialMilliseconds: Int?
    /// The server retry backoff's longest wait, in milliseconds (default 60000).
    var retryMaximumMilliseconds: Int?

    private enum CodingKeys: String, CodingKey {
        case serverURL, dataDirectory, store, emulatorURL, deviceId, eventQueueCapacity
        case retryInitialMilliseconds, retryMaximumMilliseconds
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        serverURL = try container.decode(URL.self, forKey: .serverURL)
        dataDirectory = try container.decode(String.self, forKey: .dataDirectory)
        store = try container.decodeIfPresent(Store.self, forKey: .store) ?? .storekit2
        emulatorURL = try container.decodeIfPresent(URL.self, forKey: .emulatorURL)
        deviceId = try container.decodeIfPresent(String.self, forKey: .deviceId)
        eventQueueCapacity = try container.decodeIfPresent(Int.self, forKey: .eventQueueCapacity) ?? 256
        retryInitialMilliseconds = try container.decodeIfPresent(Int.self, forKey: .retryInitialMilliseconds)
        retryMaximumMilliseconds = try container.decodeIfPresent(Int.self, forKey: .retryMaximumMilliseconds)
    }
}

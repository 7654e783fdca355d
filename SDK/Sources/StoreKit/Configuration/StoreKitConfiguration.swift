import Foundation

/// Where StoreKit for Linux finds the emulator and the device's local files: exactly the
/// environment variables `STOREKEEPER_STOREKIT_URL` (the emulator's root URL),
/// `STOREKEEPER_STOREKIT_DEVICE` (the emulated device's id) and `STOREKEEPER_STOREKIT_DATA`
/// (the device's local directory), read at each use.
package struct StoreKitConfiguration: Sendable, Hashable {
    /// The emulator's root URL (`serve --dev` or `storekeeper emulator`).
    package var emulatorURL: URL
    /// The emulated device's id: `STOREKEEPER_STOREKIT_DEVICE`, or the fresh device
    /// `SKTestSession.clearTransactions()` replaced it with (``ClearedDevices``).
    package var deviceId: String
    /// `STOREKEEPER_STOREKIT_DEVICE` itself, which ``deviceId`` may replace.
    package var requestedDeviceId: String
    /// The device's local directory: the app receipt (`receipt`) and the pinned root
    /// (`emulator-jws-root.der`).
    package var dataDirectory: URL
    /// The app's launch a ``StoreKitDevice`` stands for (one per value): what StoreKit
    /// remembers "in this process" is remembered per launch. `nil` for the environment's.
    package var launch: UUID?

    /// The environment variable names.
    package static let urlVariable = "STOREKEEPER_STOREKIT_URL"
    package static let deviceVariable = "STOREKEEPER_STOREKIT_DEVICE"
    package static let dataVariable = "STOREKEEPER_STOREKIT_DATA"

    /// The device the current task speaks for instead of the environment's: set by
    /// ``StoreKitDevice/run(_:)``, inherited by the tasks it creates.
    @TaskLocal package static var scoped: StoreKitConfiguration?

    /// The configuration now: the ``scoped`` device's, else the process's environment's.
    ///
    /// - Throws: ``StoreKitConfigurationError`` naming the variable that is missing, empty
    ///   or (the URL) not an http or https URL.
    package static func current() throws(StoreKitConfigurationError) -> StoreKitConfiguration {
        if let scoped { return scoped.followingClears() }
        let environment = ProcessInfo.processInfo.environment
        func value(_ name: String) throws(StoreKitConfigurationError) -> String {
            guard let value = environment[name], !value.isEmpty else { throw .missing(name) }
            return value
        }
        return try StoreKitConfiguration(
            url: try value(urlVariable), deviceId: try value(deviceVariable), dataDirectory: try value(dataVariable))
    }

    /// A configuration from the three values, checked as the environment's are.
    package init(url urlText: String, deviceId: String, dataDirectory: String) throws(StoreKitConfigurationError) {
        guard let url = URL(string: urlText), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme)
        else { throw .invalid(Self.urlVariable, urlText) }
        guard !deviceId.isEmpty else { throw .missing(Self.deviceVariable) }
        guard deviceId.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw .invalid(Self.deviceVariable, deviceId)
        }
        guard !dataDirectory.isEmpty else { throw .missing(Self.dataVariable) }
        self.init(
            emulatorURL: url, deviceId: ClearedDevices.shared.device(for: deviceId, at: url),
            requestedDeviceId: deviceId, dataDirectory: URL(fileURLWithPath: dataDirectory, isDirectory: true))
    }

    private init(emulatorURL: URL, deviceId: String, requestedDeviceId: String, dataDirectory: URL) {
        self.emulatorURL = emulatorURL
        self.deviceId = deviceId
        self.requestedDeviceId = requestedDeviceId
        self.dataDirectory = dataDirectory
    }

    /// This configuration, on the device that replaces its device now if
    /// `SKTestSession.clearTransactions()` replaced it since: what a listener started
    /// before the clear follows, as on Apple's devices.
    package func followingClears() -> StoreKitConfiguration {
        var configuration = self
        configuration.deviceId = ClearedDevices.shared.device(for: requestedDeviceId, at: emulatorURL)
        return configuration
    }

    /// `emulator URL|device id`, and `|launch` for a ``StoreKitDevice``: whose memory of
    /// transactions (delivered, answered, under way) a key is in.
    package var appKey: String {
        "\(emulatorURL.absoluteString)|\(deviceId)" + (launch.map { "|\($0.uuidString)" } ?? "")
    }

    /// `$STOREKEEPER_STOREKIT_DATA/receipt`: the app receipt (DER PKCS#7, as the file at
    /// Apple's `Bundle.main.appStoreReceiptURL`), which Foundation on Linux does not give.
    package var receiptURL: URL { dataDirectory.appendingPathComponent("receipt") }

    /// `$STOREKEEPER_STOREKIT_DATA/emulator-jws-root.der`: the root JWS must chain to.
    package var trustedRootURL: URL { dataDirectory.appendingPathComponent("emulator-jws-root.der") }
}

/// StoreKit for Linux is not configured: an environment variable is missing or invalid.
/// StoreKit 2 reports it as `StoreKitError.systemError`, StoreKit 1 as `SKError`
/// `.clientInvalid` with this error under `NSUnderlyingErrorKey`.
public struct StoreKitConfigurationError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The environment variable at fault.
    public var variable: String
    /// What is wrong with it.
    public var problem: String

    static func missing(_ variable: String) -> StoreKitConfigurationError {
        StoreKitConfigurationError(variable: variable, problem: "is not set")
    }

    static func invalid(_ variable: String, _ value: String) -> StoreKitConfigurationError {
        StoreKitConfigurationError(variable: variable, problem: "has an invalid value \"\(value)\"")
    }

    public var description: String {
        "StoreKit for Linux: \(variable) \(problem); set STOREKEEPER_STOREKIT_URL (the emulator's URL), "
            + "STOREKEEPER_STOREKIT_DEVICE (the device id) and STOREKEEPER_STOREKIT_DATA (a local directory)"
    }

    public var errorDescription: String? { description }
}

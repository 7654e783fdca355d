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

    /// The environment variable names.
    package static let urlVariable = "STOREKEEPER_STOREKIT_URL"
    package static let deviceVariable = "STOREKEEPER_STOREKIT_DEVICE"
    package static let dataVariable = "STOREKEEPER_STOREKIT_DATA"

    /// The configuration the process's environment gives now.
    ///
    /// - Throws: ``StoreKitConfigurationError`` naming the variable that is missing, empty
    ///   or (the URL) not an http or https URL.
    package static func current() throws(StoreKitConfigurationError) -> StoreKitConfiguration {
        let environment = ProcessInfo.processInfo.environment
        func value(_ name: String) throws(StoreKitConfigurationError) -> String {
            guard let value = environment[name], !value.isEmpty else { throw .missing(name) }
            return value
        }
        let urlText = try value(urlVariable)
        guard let url = URL(string: urlText), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme)
        else { throw .invalid(urlVariable, urlText) }
        let deviceId = try value(deviceVariable)
        guard deviceId.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw .invalid(deviceVariable, deviceId)
        }
        let data = URL(fileURLWithPath: try value(dataVariable), isDirectory: true)
        return StoreKitConfiguration(
            emulatorURL: url, deviceId: ClearedDevices.shared.device(for: deviceId, at: url),
            requestedDeviceId: deviceId, dataDirectory: data)
    }

    /// This configuration, on the device that replaces its device now if
    /// `SKTestSession.clearTransactions()` replaced it since: what a listener started
    /// before the clear follows, as on Apple's devices.
    package func followingClears() -> StoreKitConfiguration {
        var configuration = self
        configuration.deviceId = ClearedDevices.shared.device(for: requestedDeviceId, at: emulatorURL)
        return configuration
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

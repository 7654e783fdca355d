import Foundation

/// The root StoreKit for Linux trusts: the emulator's JWS root, pinned in
/// `$STOREKEEPER_STOREKIT_DATA/emulator-jws-root.der`. When that file is absent it is
/// fetched once from the emulator (`GET /emulator/v1/roots`) and written there; from then
/// on the file is trusted, whatever the emulator says (trust on first use, as a device
/// ships Apple's root). Put another root in the file and nothing the emulator signs verifies.
package enum TrustedRoot {
    /// The root's DER for `configuration`'s data directory, read from the file at each
    /// verification (so a replaced file takes effect at once).
    package static func der(for configuration: StoreKitConfiguration) throws -> Data {
        let url = configuration.trustedRootURL
        if let pinned = try? Data(contentsOf: url), !pinned.isEmpty { return pinned }
        let der = try EmulatorClient(configuration: configuration).jwsRoot()
        try FileManager.default.createDirectory(at: configuration.dataDirectory, withIntermediateDirectories: true)
        try der.write(to: url, options: .atomic)
        return der
    }
}

// swift-tools-version: 6.1
import Foundation
import PackageDescription

// StoreKeeperClient: the client SDK's own package, which an app adds alone. It depends on
// nothing but Foundation and, on Apple platforms, Apple's StoreKit:
//
// - `PurchaseSDK`: the purchase pipeline (journal, server client, retries, event log);
// - `PurchaseSDKStoreKit`: its store clients over StoreKit;
// - `PurchaseSDKEmulator`: its store client over the StoreKeeper emulator's device API,
//   for tests and the simulation;
// - `StoreKeeperSDK`: the C ABI (`sk_*`, JSON in and out) that game engines link.
//
// On Linux it also provides `StoreKit` and `StoreKitTest`: Apple's StoreKit 2, StoreKit 1
// and StoreKit Test API over the emulator (docs/storekit-linux.md), so the StoreKit
// clients compile and run there. On Apple platforms it declares neither, so Apple's
// frameworks are used.

/// The linker flags of libStoreKeeperSDK.so: a version script that exports only the C ABI,
/// named by absolute path since the linker runs elsewhere; and `-z nodelete`, so that a
/// host's `dlclose` (Mono unloads native libraries as it exits) never unmaps the library
/// while the Swift runtime's threads still run its code (a SIGSEGV at exit, seen with the C#
/// example).
var abiExportSettings: [LinkerSetting] {
    let exports = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Sources/StoreKeeperSDK/exports.map").path
    return [
        .unsafeFlags(
            ["-Xlinker", "--version-script=\(exports)", "-Xlinker", "-z", "-Xlinker", "nodelete"],
            .when(platforms: [.linux, .android]))
    ]
}

var products: [Product] = [
    .library(name: "PurchaseSDK", targets: ["PurchaseSDK"]),
    .library(name: "PurchaseSDKStoreKit", targets: ["PurchaseSDKStoreKit"]),
    .library(name: "PurchaseSDKEmulator", targets: ["PurchaseSDKEmulator"]),
    // The C ABI for game engines (Engines/, docs/engines.md): `libStoreKeeperSDK.so` here.
    .library(name: "StoreKeeperSDK", type: .dynamic, targets: ["StoreKeeperSDK"]),
]
var targets: [Target] = [
    .target(name: "PurchaseSDK"),
    .target(name: "PurchaseSDKEmulator", dependencies: ["PurchaseSDK"]),
]

/// The C ABI's modules: the pipeline, its store clients (emulator and StoreKit) and, on Linux,
/// StoreKit for Linux itself, whose configuration `sk_open` checks.
var abiDependencies: [Target.Dependency] = ["PurchaseSDK", "PurchaseSDKEmulator", "PurchaseSDKStoreKit"]
#if os(Linux)
    abiDependencies.append("StoreKit")
#endif
// `include/storekeeper_sdk.h` is the ABI's header, shipped beside the library;
// `exports.map` keeps every symbol but the ABI's inside the library (ELF linkers).
targets.append(
    .target(
        name: "StoreKeeperSDK", dependencies: abiDependencies, exclude: ["include", "exports.map"],
        linkerSettings: abiExportSettings))
targets.append(.testTarget(name: "StoreKeeperSDKTests", dependencies: ["StoreKeeperSDK", "PurchaseSDK"]))

#if os(Linux)
    products += [
        .library(name: "StoreKit", targets: ["StoreKit"]),
        .library(name: "StoreKitTest", targets: ["StoreKitTest"]),
    ]
    targets += [
        // The system's OpenSSL (Debian: libssl-dev), which verifies ES256 signatures and
        // X.509 chains: StoreKit for Linux has no package dependency.
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"]), .brew(["openssl"])]),
        .target(name: "CStoreKitCrypto", dependencies: ["COpenSSL"]),
        .target(name: "StoreKit", dependencies: ["CStoreKitCrypto"]),
        .target(name: "StoreKitTest", dependencies: ["StoreKit"]),
        .target(name: "PurchaseSDKStoreKit", dependencies: ["PurchaseSDK", "StoreKit"]),
        .testTarget(
            name: "StoreKitTests", dependencies: ["StoreKit", "StoreKitTest"], resources: [.copy("Fixtures")]),
    ]
#else
    targets += [.target(name: "PurchaseSDKStoreKit", dependencies: ["PurchaseSDK"])]
#endif

let package = Package(
    name: "StoreKeeperClient",
    platforms: [.macOS(.v13), .iOS(.v15)],
    products: products,
    targets: targets,
    swiftLanguageModes: [.v6]
)

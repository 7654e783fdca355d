// swift-tools-version: 6.1
import PackageDescription

// StoreKeeperClient: the client SDK's own package. It depends on nothing but Foundation
// and, on Apple platforms, Apple's StoreKit. On Linux it also provides `StoreKit` and
// `StoreKitTest`: Apple's StoreKit 2, StoreKit 1 and StoreKit Test API over the
// StoreKeeper App Store emulator (docs/storekit-linux.md). On Apple platforms it declares
// neither, so Apple's frameworks are used.
//
// Later the PurchaseSDK targets (core and StoreKit adapters) move here (issue 26, section 3).

var products: [Product] = []
var targets: [Target] = []

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
        .testTarget(
            name: "StoreKitTests", dependencies: ["StoreKit", "StoreKitTest"], resources: [.copy("Fixtures")]),
    ]
#endif

let package = Package(
    name: "StoreKeeperClient",
    platforms: [.macOS(.v13), .iOS(.v15)],
    products: products,
    targets: targets,
    swiftLanguageModes: [.v6]
)

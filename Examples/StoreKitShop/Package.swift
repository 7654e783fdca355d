// swift-tools-version: 6.1
import PackageDescription

// StoreKitShop: a small shop as an iOS team writes it (StoreKit 2 and StoreKit 1, plain
// `import StoreKit`) with its StoreKit Test suite (`SKTestSession`).
//
// On Apple platforms it uses Apple's StoreKit and StoreKitTest frameworks and depends on
// nothing. On Linux the same sources build against StoreKeeper's `StoreKit` and
// `StoreKitTest` (../../SDK, docs/storekit-linux.md), which talk to `storekeeper serve --dev`
// or `storekeeper emulator`: this `#if` in the manifest is the only Linux-specific line.

var shopDependencies: [Target.Dependency] = []
var testDependencies: [Target.Dependency] = ["Shop"]
var packageDependencies: [Package.Dependency] = []

#if os(Linux)
    packageDependencies.append(.package(name: "StoreKeeperClient", path: "../../SDK"))
    shopDependencies.append(.product(name: "StoreKit", package: "StoreKeeperClient"))
    testDependencies.append(.product(name: "StoreKitTest", package: "StoreKeeperClient"))
#endif

let package = Package(
    name: "StoreKitShop",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [.library(name: "Shop", targets: ["Shop"])],
    dependencies: packageDependencies,
    targets: [
        .target(name: "Shop", dependencies: shopDependencies),
        // Shop.storekit is the test target's resource: `SKTestSession(configurationFileNamed:)`
        // finds it in the test bundle, in Xcode and on Linux.
        .testTarget(name: "ShopTests", dependencies: testDependencies, resources: [.copy("Shop.storekit")]),
    ],
    swiftLanguageModes: [.v6]
)

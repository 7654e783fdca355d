// swift-tools-version: 6.1

import PackageDescription

/// StoreKit for Linux (the SDK's `StoreKit` product, declared on Linux only): the
/// simulation's phones can run through it (`simulate --store storekit`).
var storeKitForLinux: [Target.Dependency] = []
#if os(Linux)
    storeKitForLinux.append(.product(name: "StoreKit", package: "SDK"))
#endif

let package = Package(
    name: "StoreKeeper",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "AppStoreModel", targets: ["AppStoreModel"]),
        .library(name: "AppStoreVerification", targets: ["AppStoreVerification"]),
        .library(name: "AppStoreSigning", targets: ["AppStoreSigning"]),
        .library(name: "AppStoreAPI", targets: ["AppStoreAPI"]),
        .library(name: "AppStoreEmulator", targets: ["AppStoreEmulator"]),
        .library(name: "PlayModel", targets: ["PlayModel"]),
        .library(name: "PlaySigning", targets: ["PlaySigning"]),
        .library(name: "PlayEmulator", targets: ["PlayEmulator"]),
        .library(name: "GooglePlayAPI", targets: ["GooglePlayAPI"]),
        .library(name: "Ledger", targets: ["Ledger"]),
        .library(name: "PlayerAuth", targets: ["PlayerAuth"]),
        .library(name: "PurchaseServer", targets: ["PurchaseServer"]),
        .library(name: "SupportConsole", targets: ["SupportConsole"]),
        .library(name: "StoreKeeperDev", targets: ["StoreKeeperDev"]),
        .library(name: "OrderSimulation", targets: ["OrderSimulation"]),
        .library(name: "StoreKeeperLogging", targets: ["StoreKeeperLogging"]),
        .executable(name: "storekeeper", targets: ["storekeeper"]),
    ],
    dependencies: [
        // The client SDK's own package (PurchaseSDK, its store clients, StoreKit for Linux).
        .package(path: "SDK"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        .target(name: "AppStoreModel"),
        .target(
            name: "AppStoreVerification",
            dependencies: [
                "AppStoreModel",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            resources: [.copy("Resources")]
        ),
        .target(
            name: "AppStoreSigning",
            dependencies: [
                "AppStoreModel",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .target(
            name: "AppStoreAPI",
            dependencies: [
                "AppStoreModel",
                "AppStoreSigning",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(name: "PlayModel"),
        .target(
            name: "PlaySigning",
            dependencies: [
                "AppStoreSigning",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "GooglePlayAPI",
            dependencies: [
                "AppStoreAPI", "PlayModel", "PlaySigning",
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "PlayEmulator",
            dependencies: [
                "AppStoreSigning",
                "PlayModel",
                "PlaySigning",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "HTTPRouting",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")]
        ),
        .target(
            name: "AppStoreEmulator",
            dependencies: [
                "HTTPRouting",
                "PlayEmulator",
                "PlayModel",
                "AppStoreModel",
                "AppStoreVerification",
                "AppStoreSigning",
                "AppStoreAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .target(
            name: "Ledger",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .target(
            name: "PlayerAuth",
            dependencies: ["AppStoreSigning", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "PurchaseServer",
            dependencies: [
                "AppStoreModel",
                "AppStoreVerification",
                "AppStoreAPI",
                "GooglePlayAPI",
                "PlayModel",
                "PlaySigning",
                "Ledger",
                "PlayerAuth",
                "HTTPRouting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .target(
            name: "SupportConsole",
            dependencies: [
                "AppStoreAPI",
                "AppStoreModel",
                "HTTPRouting",
                "Ledger",
                "PurchaseServer",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdOTP", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [.copy("Resources")]
        ),
        .target(
            name: "StoreKeeperDev",
            dependencies: [
                "SupportConsole",
                "PlayModel",
                "HTTPRouting",
                "AppStoreAPI",
                "AppStoreEmulator",
                "AppStoreModel",
                "AppStoreVerification",
                "Ledger",
                "PlayEmulator",
                "PurchaseServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(name: "StoreKeeperLogging", dependencies: [.product(name: "Logging", package: "swift-log")]),
        .target(
            name: "OrderSimulation",
            dependencies: [
                "AppStoreEmulator",
                "AppStoreModel",
                "AppStoreSigning",
                "Ledger",
                "PlayEmulator",
                "PlayModel",
                .product(name: "PurchaseSDK", package: "SDK"),
                .product(name: "PurchaseSDKEmulator", package: "SDK"),
                .product(name: "PurchaseSDKStoreKit", package: "SDK"),
                "PurchaseServer",
                "StoreKeeperDev",
                "AppStoreAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ] + storeKitForLinux
        ),
        // A game's pipeline over a StoreKit adapter, as an app process the kill test SIGKILLs.
        .executableTarget(
            name: "storekit-player",
            dependencies: [
                .product(name: "PurchaseSDK", package: "SDK"),
                .product(name: "PurchaseSDKStoreKit", package: "SDK"),
            ],
            path: "Sources/StoreKitPlayer"
        ),
        .executableTarget(
            name: "storekeeper",
            dependencies: [
                "AppStoreModel",
                "PurchaseServer",
                "StoreKeeperDev",
                .product(name: "PurchaseSDK", package: "SDK"),
                .product(name: "PurchaseSDKEmulator", package: "SDK"),
                .product(name: "PurchaseSDKStoreKit", package: "SDK"),
                "OrderSimulation",
                "Ledger",
                "SupportConsole",
                "StoreKeeperLogging",
                .product(name: "Logging", package: "swift-log"),
                "AppStoreVerification",
                "AppStoreSigning",
                "AppStoreEmulator",
                "PlayEmulator",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.copy("Resources")]
        ),
        .testTarget(name: "AppStoreModelTests", dependencies: ["AppStoreModel"]),
        .testTarget(name: "PlayModelTests", dependencies: ["PlayModel"]),
        .testTarget(
            name: "PlaySigningTests",
            dependencies: [
                "PlaySigning", "AppStoreSigning",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "StoreKeeperLoggingTests",
            dependencies: ["StoreKeeperLogging", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "HTTPRoutingTests",
            dependencies: [
                "HTTPRouting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "AppStoreVerificationTests",
            dependencies: [
                "AppStoreModel",
                "LedgerTestSupport",
                "AppStoreVerification",
                "AppStoreSigning",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "AppStoreSigningTests",
            dependencies: [
                "AppStoreModel", "TestProcesses",
                "AppStoreSigning",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .testTarget(
            name: "AppStoreAPITests",
            dependencies: [
                "AppStoreAPI",
                "AppStoreModel",
                "AppStoreSigning",
                "AppStoreVerification",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "AppStoreEmulatorTests",
            dependencies: [
                "EmulatorTestSupport",
                "AppStoreEmulator", "TestProcesses",
                "AppStoreAPI",
                "AppStoreModel",
                "AppStoreSigning",
                "AppStoreVerification",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .testTarget(
            name: "PlayEmulatorTests",
            dependencies: [
                "EmulatorTestSupport",
                "LedgerTestSupport",
                "AppStoreEmulator",
                "PlayEmulator",
                "PlayModel",
                "PlaySigning",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(name: "TestProcesses", path: "Tests/TestProcesses"),
        .target(
            name: "EmulatorTestSupport", dependencies: ["AppStoreEmulator", "AppStoreSigning"],
            path: "Tests/EmulatorTestSupport"),
        .target(name: "LedgerTestSupport", dependencies: ["Ledger", "TestProcesses"], path: "Tests/LedgerTestSupport"),
        .testTarget(
            name: "LedgerTests",
            dependencies: [
                "Ledger", "AppStoreModel", "LedgerTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "PurchaseServerTests",
            dependencies: [
                "EmulatorTestSupport",
                "GooglePlayAPI",
                "PlayEmulator",
                "PlayModel",
                "PlaySigning",
                "PurchaseServer",
                "HTTPRouting",
                "StoreKeeperDev",
                "Ledger",
                "AppStoreEmulator",
                "AppStoreModel",
                "AppStoreAPI",
                "AppStoreSigning",
                "AppStoreVerification",
                "LedgerTestSupport",
                "StoreKeeperLogging",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "SupportConsoleTests",
            dependencies: [
                "EmulatorTestSupport",
                "SupportConsole",
                "PurchaseServer",
                "StoreKeeperDev",
                "Ledger",
                "LedgerTestSupport",
                "AppStoreEmulator",
                "AppStoreModel",
                "HTTPRouting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdOTP", package: "hummingbird-auth"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "PurchaseSDKTests",
            dependencies: [
                "EmulatorTestSupport",
                .product(name: "PurchaseSDK", package: "SDK"),
                "HTTPRouting",
                .product(name: "PurchaseSDKEmulator", package: "SDK"),
                .product(name: "PurchaseSDKStoreKit", package: "SDK"),
                "StoreKeeperDev",
                "PurchaseServer",
                "Ledger",
                "LedgerTestSupport",
                "AppStoreEmulator",
                "PlayEmulator",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "OrderSimulationTests",
            dependencies: ["OrderSimulation", "Ledger", "LedgerTestSupport", "PurchaseServer"]
        ),
        .testTarget(
            name: "StoreKeeperCLITests",
            dependencies: [
                "storekeeper", "storekit-player", "AppStoreModel", "AppStoreSigning", "OrderSimulation", "Ledger",
                "LedgerTestSupport",
                "PurchaseServer", "TestProcesses",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

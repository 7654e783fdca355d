// swift-tools-version: 6.1

import PackageDescription

let package = Package(
    name: "StoreKeeper",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "AppStoreModel", targets: ["AppStoreModel"]),
        .library(name: "AppStoreVerification", targets: ["AppStoreVerification"]),
        .library(name: "AppStoreSigning", targets: ["AppStoreSigning"]),
        .executable(name: "storekeeper", targets: ["storekeeper"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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
        .executableTarget(
            name: "storekeeper",
            dependencies: [
                "AppStoreModel",
                "AppStoreVerification",
                "AppStoreSigning",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "AppStoreModelTests", dependencies: ["AppStoreModel"]),
        .testTarget(
            name: "AppStoreVerificationTests",
            dependencies: [
                "AppStoreModel",
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
                "AppStoreModel",
                "AppStoreSigning",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .testTarget(name: "StoreKeeperCLITests", dependencies: ["storekeeper", "AppStoreModel", "AppStoreSigning"]),
    ],
    swiftLanguageModes: [.v6]
)

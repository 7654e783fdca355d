// swift-tools-version: 6.1

import PackageDescription

/// The root package's identity: SwiftPM names a path dependency after its directory, which
/// depends on where the repository was cloned.
let root = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main").lowercased()

// libFuzzer targets for StoreKeeper's parsers. Kept out of the root package so that its
// `swift build` and `swift test` never build them; see README.md for how to build and run.
//
// Each target is an executable whose `main` hands over to libFuzzer's driver, which calls
// the target's `LLVMFuzzerTestOneInput`. They link only with `-sanitize=fuzzer`: build them
// with `run.sh`, which passes `-sanitize=fuzzer,address`.
let package = Package(
    name: "StoreKeeperFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(path: "../SDK"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"]),
        .executableTarget(
            name: "FuzzReceiptContainer",
            dependencies: ["FuzzSupport", .product(name: "AppStoreVerification", package: root)]
        ),
        .executableTarget(
            name: "FuzzReceiptPayload",
            dependencies: [
                "FuzzSupport",
                .product(name: "AppStoreVerification", package: root),
                .product(name: "AppStoreSigning", package: root),
                .product(name: "AppStoreModel", package: root),
            ]
        ),
        .executableTarget(
            name: "FuzzCompactJWS",
            dependencies: [
                "FuzzSupport",
                .product(name: "AppStoreVerification", package: root),
                .product(name: "AppStoreSigning", package: root),
                .product(name: "AppStoreModel", package: root),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .executableTarget(
            name: "FuzzJournalLine",
            dependencies: ["FuzzSupport", .product(name: "PurchaseSDK", package: "SDK")]
        ),
        .executableTarget(
            name: "FuzzOCSP",
            dependencies: [
                "FuzzSupport",
                .product(name: "AppStoreVerification", package: root),
                .product(name: "AppStoreSigning", package: root),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .executableTarget(
            name: "FuzzPlayerToken",
            dependencies: [
                "FuzzSupport",
                .product(name: "PlayerAuth", package: root),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

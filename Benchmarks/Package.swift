// swift-tools-version: 6.1

import PackageDescription

/// The root package's identity: SwiftPM names a path dependency after its directory, which
/// depends on where the repository was cloned.
let root = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main").lowercased()

// Micro-benchmarks (ordo-one/benchmark): time and allocations per call of verification and
// ledger writes. Kept out of the root package so that its `swift build` and `swift test`
// never build them; see README.md for how to run them and compare with a baseline.
//
// The MallocInterposer trait alone: malloc counts come from the interposer (no jemalloc
// needed), and the ARC runtime interposer (a package not mirrored here) stays out.
let package = Package(
    name: "StoreKeeperBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "Verification",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AppStoreVerification", package: root),
                .product(name: "AppStoreSigning", package: root),
                .product(name: "AppStoreModel", package: root),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/Verification",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "LedgerWrites",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Ledger", package: root),
                .product(name: "AppStoreModel", package: root),
            ],
            path: "Benchmarks/LedgerWrites",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

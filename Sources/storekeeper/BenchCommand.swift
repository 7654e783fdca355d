import AppStoreModel
import AppStoreSigning
import AppStoreVerification
import ArgumentParser
import Crypto
import Foundation

/// `storekeeper bench`: measures verification speed on this machine.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure JWS and receipt verification speed (build with -c release for real numbers).",
        discussion: """
            Single-threaded. Cases: the raw P-256 verification floor, JWS verify+decode with a \
            warm and a cold chain cache (a chain of StoreKeeper's own, shaped like Apple's), a \
            synthesized receipt, and each --receipt given (verified against --root, or Apple's roots).
            """
    )

    @Option(help: "Seconds to run each case.")
    var seconds: Double = 3

    @Option(help: "A receipt file (base64 or DER) to benchmark; repeatable.")
    var receipt: [String] = []

    @Option(name: .customLong("root"), help: "Trusted root (DER or PEM) for the --receipt files; repeatable.")
    var rootPaths: [String] = []

    @Option(help: "Run only the cases whose name contains this text.")
    var filter: String?

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func validate() throws {
        try SecondsOption.check(seconds, "--seconds")
    }

    func run() async throws {
        let runner = BenchmarkRunner(seconds: seconds, filter: filter)
        var results: [BenchmarkRunner.Result?] = []

        let jwsChain = try SigningChain.generate(.es256)
        let jws = try JWSSigner(chain: jwsChain).sign(Self.sampleTransaction())
        let jwsRoots = TrustRoots([jwsChain.root])
        let signingInput = Data(jws.split(separator: ".").prefix(2).joined(separator: ".").utf8)
        let floorKey = P256.Signing.PrivateKey()
        let floorSignature = try floorKey.signature(for: signingInput)
        results.append(
            try await runner.measure("p256-verify (floor)") {
                guard floorKey.publicKey.isValidSignature(floorSignature, for: signingInput) else {
                    throw ValidationError("floor signature failed")
                }
            }
        )
        let warm = JWSVerifier(roots: jwsRoots)
        results.append(try await runner.measure("jws-verify warm cache") { _ = try await warm.verifyTransaction(jws) })
        results.append(
            try await runner.measure("jws-verify warm cache, claims only") {
                _ = try await warm.verify(jws, as: AnySignedPayload.self)
            }
        )
        results.append(
            try await runner.measure("jws-verify cold cache") {
                _ = try await JWSVerifier(roots: jwsRoots).verifyTransaction(jws)
            }
        )

        let receiptChain = try SigningChain.generate(.rsa2048)
        let receiptBytes = try ReceiptSigner(chain: receiptChain).sign(Self.sampleReceipt(purchases: 4))
        let receiptVerifier = ReceiptVerifier(roots: TrustRoots([receiptChain.root]))
        results.append(
            try await runner.measure("receipt-verify synthesized, 4 in-app") {
                _ = try await receiptVerifier.verify(receiptBytes)
            }
        )

        let options = try VerificationOptions.parse(rootPaths.flatMap { ["--root", $0] })
        let fileVerifier = ReceiptVerifier(roots: try options.trustRoots())
        for path in receipt {
            let bytes = try InputFile.read(path)
            let count = try await fileVerifier.verify(bytes).receipt.inAppPurchases.count
            let name = "receipt-verify \(URL(fileURLWithPath: path).lastPathComponent), \(count) in-app"
            results.append(try await runner.measure(name) { _ = try await fileVerifier.verify(bytes) })
        }
        report(results)
    }

    private func report(_ measured: [BenchmarkRunner.Result?]) {
        let results = measured.compactMap { $0 }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: (try? encoder.encode(["results": results])) ?? Data(), as: UTF8.self))
            return
        }
        print("case".padding(toLength: 44, withPad: " ", startingAt: 0) + "     ops/s   mean µs    p50 µs    p99 µs")
        for result in results {
            let numbers = [
                result.operationsPerSecond, result.meanMicroseconds, result.p50Microseconds, result.p99Microseconds,
            ]
            .map { String(format: "%10.1f", $0) }.joined()
            print(result.name.padding(toLength: 44, withPad: " ", startingAt: 0) + numbers)
        }
    }

    private static func sampleTransaction() -> JWSTransactionDecodedPayload {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return JWSTransactionDecodedPayload(
            transactionId: "2000000302596403",
            originalTransactionId: "2000000302596403",
            bundleId: "com.example.game",
            productId: "com.example.game.coins100",
            purchaseDate: now,
            originalPurchaseDate: now,
            quantity: 1,
            type: .consumable,
            appAccountToken: UUID().uuidString.lowercased(),
            inAppOwnershipType: .purchased,
            signedDate: now,
            environment: .sandbox,
            storefront: "USA",
            storefrontId: "143441",
            transactionReason: .purchase,
            price: 990,
            currency: "USD"
        )
    }

    private static func sampleReceipt(purchases: Int) -> AppReceipt {
        let now = Date()
        return AppReceipt(
            receiptType: "ProductionSandbox",
            bundleId: "com.example.game",
            appVersion: "1.0",
            opaqueValue: Data(repeating: 7, count: 16),
            sha1Hash: Data(repeating: 9, count: 20),
            creationDate: now,
            originalAppVersion: "1.0",
            inAppPurchases: (0..<purchases).map { index in
                InAppPurchase(
                    quantity: 1,
                    productId: "com.example.game.coins100",
                    transactionId: "20000003025964\(10 + index)",
                    originalTransactionId: "20000003025964\(10 + index)",
                    purchaseDate: now,
                    originalPurchaseDate: now
                )
            }
        )
    }
}

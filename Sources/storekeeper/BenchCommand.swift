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
            Single-threaded. Cases: the raw P-256 verification floor; JWS verify+decode with a warm and a \
            cold chain cache (a new verifier each call: full chain validation), for a chain of StoreKeeper's \
            own shaped like Apple's and for a real Apple-signed transaction (built in: \
            QysmatApp-transaction-1.jws, Apple's G3 chain, P-384 above the P-256 leaf, verified against the \
            bundled Apple Root CA - G3 at the transaction's signedDate); a synthesized receipt; Apple's \
            production receipt (built in: receipt-production.b64, verified at its creation date); and each \
            --receipt and --jws given (verified against --root, or Apple's roots).

            The warm Apple JWS case is compared with \(BenchmarkReport.appleLibraryReference.description). \
            The production receipt is compared with the P-256 floor measured in the same run.
            """
    )

    @Option(help: "Seconds to run each case.")
    var seconds: Double = 3

    @Option(help: "A receipt file (base64 or DER) to benchmark besides the built-in production receipt; repeatable.")
    var receipt: [String] = []

    @Option(
        name: .customLong("jws"),
        help: "A JWS file to benchmark (warm and cold) besides the built-in Apple transaction; repeatable.")
    var jwsPaths: [String] = []

    @Option(name: .customLong("root"), help: "Trusted root (DER or PEM) for the --receipt and --jws files; repeatable.")
    var rootPaths: [String] = []

    @Option(help: "Run only the cases whose name contains this text.")
    var filter: String?

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    /// The built-in Apple-signed transaction.
    static let appleJWSResource = "QysmatApp-transaction-1.jws"
    /// The built-in production receipt.
    static let productionReceiptResource = "receipt-production.b64"

    func validate() throws {
        try SecondsOption.check(seconds, "--seconds")
    }

    func run() async throws {
        let runner = BenchmarkRunner(seconds: seconds, filter: filter)
        var report = BenchmarkReport()

        let jwsChain = try SigningChain.generate(.es256)
        let jws = try JWSSigner(chain: jwsChain).sign(Self.sampleTransaction())
        let jwsRoots = TrustRoots([jwsChain.root])
        let signingInput = Data(jws.split(separator: ".").prefix(2).joined(separator: ".").utf8)
        let floorKey = P256.Signing.PrivateKey()
        let floorSignature = try floorKey.signature(for: signingInput)
        report.add(
            try await runner.measure("p256-verify (floor)") {
                guard floorKey.publicKey.isValidSignature(floorSignature, for: signingInput) else {
                    throw ValidationError("floor signature failed")
                }
            },
            as: .floor
        )
        let warm = JWSVerifier(roots: jwsRoots)
        report.add(try await runner.measure("jws-verify warm cache") { _ = try await warm.verifyTransaction(jws) })
        report.add(
            try await runner.measure("jws-verify warm cache, claims only") {
                _ = try await warm.verify(jws, as: AnySignedPayload.self)
            }
        )
        report.add(
            try await runner.measure("jws-verify cold cache") {
                _ = try await JWSVerifier(roots: jwsRoots).verifyTransaction(jws)
            }
        )

        let appleJWS = String(decoding: try Self.resource(Self.appleJWSResource), as: UTF8.self)
        let appleVerifier = JWSVerifier()
        report.add(
            try await runner.measure("apple-jws-verify warm cache, \(Self.appleJWSResource)") {
                _ = try await appleVerifier.verifyTransaction(appleJWS)
            },
            as: .appleJWSWarm
        )
        report.add(
            try await runner.measure("apple-jws-verify cold cache, \(Self.appleJWSResource)") {
                _ = try await JWSVerifier().verifyTransaction(appleJWS)
            }
        )

        let receiptChain = try SigningChain.generate(.rsa2048)
        let receiptBytes = try ReceiptSigner(chain: receiptChain).sign(Self.sampleReceipt(purchases: 4))
        let receiptVerifier = ReceiptVerifier(roots: TrustRoots([receiptChain.root]))
        report.add(
            try await runner.measure("receipt-verify synthesized, 4 in-app") {
                _ = try await receiptVerifier.verify(receiptBytes)
            }
        )
        report.add(
            try await measureReceipt(
                try Self.resource(Self.productionReceiptResource), named: Self.productionReceiptResource,
                verifier: ReceiptVerifier(), runner: runner),
            as: .productionReceipt
        )

        let options = try VerificationOptions.parse(rootPaths.flatMap { ["--root", $0] })
        let roots = try options.trustRoots()
        let fileVerifier = ReceiptVerifier(roots: roots)
        for path in receipt {
            report.add(
                try await measureReceipt(
                    try InputFile.read(path), named: URL(fileURLWithPath: path).lastPathComponent,
                    verifier: fileVerifier, runner: runner))
        }
        let jwsVerifier = JWSVerifier(roots: roots)
        for path in jwsPaths {
            let text = String(decoding: try InputFile.read(path), as: UTF8.self)
            let name = URL(fileURLWithPath: path).lastPathComponent
            report.add(
                try await runner.measure("jws-verify warm cache, claims only, \(name)") {
                    _ = try await jwsVerifier.verify(text, as: AnySignedPayload.self)
                })
            report.add(
                try await runner.measure("jws-verify cold cache, claims only, \(name)") {
                    _ = try await JWSVerifier(roots: roots).verify(text, as: AnySignedPayload.self)
                })
        }
        report.print(json: json)
    }

    private func measureReceipt(
        _ bytes: [UInt8], named name: String, verifier: ReceiptVerifier, runner: BenchmarkRunner
    ) async throws -> BenchmarkRunner.Result? {
        let count = try await verifier.verify(bytes).receipt.inAppPurchases.count
        return try await runner.measure("receipt-verify \(name), \(count) in-app") {
            _ = try await verifier.verify(bytes)
        }
    }

    /// A file of the command's resources (`Sources/storekeeper/Resources`).
    private static func resource(_ name: String) throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Resources"),
            let data = try? Data(contentsOf: url)
        else {
            throw ValidationError("the built-in benchmark file \(name) is missing from storekeeper's resources")
        }
        return Array(data)
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

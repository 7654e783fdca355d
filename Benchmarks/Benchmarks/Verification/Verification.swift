import AppStoreVerification
import Benchmark

/// Verification of what clients and Apple send, one call per iteration, each input and
/// verifier made in setup (chain caches warm): the P-256 floor, JWS verify + decode (a
/// chain of our own, then Apple's), and Apple's production receipt.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 10,
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )

    Benchmark("p256-verify") { _, signed in
        guard signed.key.isValidSignature(signed.signature, for: signed.input) else {
            throw VerificationError(.signatureInvalid, "the floor signature does not verify")
        }
    } setup: {
        try SignedInput.make()
    }

    Benchmark("jws-verify-warm") { _, input in
        blackHole(try await input.verifier.verifyTransaction(input.jws))
    } setup: {
        try await OwnJWS.make().warmed()
    }

    Benchmark("apple-jws-verify-warm") { _, input in
        blackHole(try await input.verifier.verifyTransaction(input.jws))
    } setup: {
        try await AppleVectors.transaction().warmed()
    }

    Benchmark("receipt-verify-production") { _, input in
        blackHole(try await input.verifier.verify(input.receipt))
    } setup: {
        try await AppleVectors.productionReceipt().warmed()
    }
}

import AppStoreSigning
import Crypto
import Foundation

/// The P-256 floor of a delivery: one ES256 signature verification of a JWS's signing
/// input, timed in this process the way `storekeeper bench` times its
/// "p256-verify (floor)" case, for the server's CPU time per delivery to be compared with.
struct LoadTestFloor: Encodable, Sendable {
    /// The case's name in `storekeeper bench`.
    static let name = "p256-verify (floor)"

    /// The length of the signing input verified (`header.payload`, the `x5c` chain included).
    var signingInputBytes: Int
    /// How many verifications were timed.
    var verifies: Int
    /// The median verification, in microseconds: the floor.
    var p50Microseconds: Double
    /// The mean verification, in microseconds.
    var meanMicroseconds: Double

    /// Times the verification for `seconds` (after a short warm-up) of the signing input of
    /// a JWS signed under a fresh ES256 chain shaped like Apple's (three certificates in
    /// `x5c`) over a transaction-sized payload (512 bytes): about 3.8 KB, the size of the
    /// emulator's signed transactions the server verifies.
    static func measure(seconds: Double) async throws -> LoadTestFloor {
        let jws = try JWSSigner(chain: SigningChain.generate(.es256)).sign(payload: Data(repeating: 0x61, count: 512))
        let signingInput = Data(jws.split(separator: ".").prefix(2).joined(separator: ".").utf8)
        let key = P256.Signing.PrivateKey()
        let signature = try key.signature(for: signingInput)
        let runner = BenchmarkRunner(seconds: seconds, filter: nil)
        let measured = try await runner.measure(name) {
            guard key.publicKey.isValidSignature(signature, for: signingInput) else {
                throw LoadTestClient.Failure(kind: "floor: the signature did not verify")
            }
        }
        guard let measured else { throw LoadTestClient.Failure(kind: "floor: not measured") }
        return LoadTestFloor(
            signingInputBytes: signingInput.count, verifies: measured.iterations,
            p50Microseconds: measured.p50Microseconds, meanMicroseconds: measured.meanMicroseconds)
    }
}

import AppStoreModel
import AppStoreVerification
import ArgumentParser
import Foundation
import X509

/// Options shared by the `inspect` commands: trust roots, expectations, output form.
struct VerificationOptions: ParsableArguments {
    @Option(
        name: .customLong("root"),
        help: ArgumentHelp(
            "A trusted root certificate (DER or PEM file); repeatable. Replaces Apple's roots.", valueName: "DER")
    )
    var rootPaths: [String] = []

    @Option(help: "Reject data signed for another bundle id.")
    var bundleId: String?

    @Option(help: "Reject data from another environment (Production, Sandbox, Xcode, ...); repeatable.")
    var environment: [String] = []

    @Flag(help: "Print one JSON object instead of a summary.")
    var json = false

    /// The trust roots: the `--root` files, or Apple's.
    func trustRoots() throws -> TrustRoots {
        guard !rootPaths.isEmpty else { return .apple }
        return TrustRoots(
            try rootPaths.map { path in
                let bytes = try InputFile.read(path)
                do {
                    if let text = String(bytes: bytes, encoding: .utf8), text.contains("-----BEGIN CERTIFICATE-----") {
                        return try Certificate(pemEncoded: text)
                    }
                    return try Certificate(derEncoded: bytes)
                } catch {
                    throw ValidationError("\(path) is not a DER or PEM certificate")
                }
            }
        )
    }

    /// The policy from `--bundle-id` and `--environment`.
    var policy: VerificationPolicy {
        VerificationPolicy(
            bundleId: bundleId,
            environments: environment.isEmpty ? nil : Set(environment.map(AppStoreEnvironment.init(rawValue:)))
        )
    }

    /// Prints a rejection in the chosen form and returns the "rejected" exit status.
    func reportRejection(_ error: VerificationError) -> ExitCode {
        if json {
            printJSON(["verified": false, "reason": error.code.rawValue, "message": error.message])
        } else {
            print("REJECTED \(error.code.rawValue): \(error.message)")
        }
        return .rejected
    }
}

/// Prints a JSON-compatible value as one line of JSON with sorted keys.
func printJSON(_ object: Any) {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
    print(String(decoding: data ?? Data("{}".utf8), as: UTF8.self))
}

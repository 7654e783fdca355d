import AppStoreVerification
import ArgumentParser
import Foundation

/// `storekeeper jws`: App Store signed data (StoreKit 2, Server API, notifications).
struct JWSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jws",
        abstract: "Work with App Store signed data (JWS).",
        subcommands: [JWSInspectCommand.self]
    )
}

/// `storekeeper jws inspect FILE`: verify and decode a JWS and the JWS nested in it.
struct JWSInspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Verify a JWS (and any signed data nested in it), then print its payload.",
        discussion: "FILE holds the compact JWS; '-' reads standard input. Exit 0 verified, 1 rejected, 2 usage."
    )

    /// The fields of a notification's `data` that hold nested signed data.
    static let nestedFields = ["signedTransactionInfo", "signedRenewalInfo"]

    @Argument(help: "The JWS file, or - for standard input.")
    var file: String

    @OptionGroup var options: VerificationOptions

    func run() async throws {
        let text = String(decoding: try InputFile.read(file), as: UTF8.self)
        let verifier = JWSVerifier(roots: try options.trustRoots(), policy: options.policy)
        var report: [String: Any] = ["verified": true]
        do {
            let outer = try await verifier.verify(text, as: AnySignedPayload.self)
            let payload = try JSONSerialization.jsonObject(with: outer.payloadJSON)
            report["payload"] = payload
            var nested: [String: Any] = [:]
            let data = (payload as? [String: Any])?["data"] as? [String: Any] ?? [:]
            for field in Self.nestedFields {
                guard let jws = data[field] as? String else { continue }
                let inner = try await verifier.verify(jws, as: AnySignedPayload.self)
                nested[field] = try JSONSerialization.jsonObject(with: inner.payloadJSON)
            }
            if !nested.isEmpty { report["nested"] = nested }
        } catch let error as VerificationError {
            throw options.reportRejection(error)
        }
        if options.json {
            printJSON(report)
        } else {
            print("VERIFIED JWS")
            printPretty(report["payload"] ?? [:], title: "payload")
            for (field, value) in (report["nested"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
                printPretty(value, title: field)
            }
        }
    }

    private func printPretty(_ object: Any, title: String) {
        let options: JSONSerialization.WritingOptions = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: options)) ?? Data()
        print("\(title):\n\(String(decoding: data, as: UTF8.self))")
    }
}

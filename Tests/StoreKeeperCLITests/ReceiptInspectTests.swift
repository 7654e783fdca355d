import Foundation
import Testing

/// `storekeeper receipt inspect`: the contract other tools rely on.
struct ReceiptInspectTests {
    let production = CommandLineRunner.resource("receipts/receipt-production.b64")

    @Test func verifiedReceiptPrintsTheContractJSON() async throws {
        let output = try await CommandLineRunner.run(["receipt", "inspect", production, "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let json = try output.json()
        #expect(json["verified"] as? Bool == true)
        let receipt = try #require(json["receipt"] as? [String: Any])
        #expect(receipt["bundleId"] as? String == "org.getpure.pure-iphone")
        #expect(receipt["receiptType"] as? String == "Production")
        #expect(receipt["creationDate"] as? String == "2024-02-23T17:27:16Z")
        let inApp = try #require(receipt["inApp"] as? [[String: Any]])
        #expect(inApp.count == 4)
        for purchase in inApp {
            for key in ["quantity", "productId", "transactionId", "originalTransactionId", "purchaseDate"] {
                #expect(purchase[key] != nil, "in-app purchase lacks \(key)")
            }
            let purchaseDate = try #require(purchase["purchaseDate"] as? String)
            #expect(ISO8601DateFormatter().date(from: purchaseDate) != nil)
        }
    }

    @Test func readsStandardInputAndRawDER() async throws {
        let base64 = try String(contentsOfFile: production, encoding: .utf8)
        let der = try #require(Data(base64Encoded: base64, options: .ignoreUnknownCharacters))
        let fromStdin = try await CommandLineRunner.run(["receipt", "inspect", "-", "--json"], input: der)
        #expect(fromStdin.status == 0, "\(fromStdin.stdout)")
        #expect(
            (try fromStdin.json()["receipt"] as? [String: Any])?["bundleId"] as? String == "org.getpure.pure-iphone")
        let fromText = try await CommandLineRunner.run(["receipt", "inspect", "-"], input: Data(base64.utf8))
        #expect(fromText.status == 0)
        #expect(fromText.stdout.contains("VERIFIED receipt"))
    }

    @Test func rootReplacesApplesRoots() async throws {
        let storeKitRoot = CommandLineRunner.resource("roots/StoreKitTestCertificate.cer")
        let rejected = try await CommandLineRunner.run([
            "receipt", "inspect", production, "--root", storeKitRoot, "--json",
        ])
        #expect(rejected.status == 1)
        let json = try rejected.json()
        #expect(json["verified"] as? Bool == false)
        #expect(json["reason"] as? String == "chain_untrusted")
        #expect((json["message"] as? String)?.isEmpty == false)

        let xcode = CommandLineRunner.resource("receipts/receipt-xcode-with-purchases.b64")
        let accepted = try await CommandLineRunner.run(["receipt", "inspect", xcode, "--root", storeKitRoot, "--json"])
        #expect(accepted.status == 0)
    }

    @Test func rejectionsExitOneWithAReason() async throws {
        let garbage = try await CommandLineRunner.run(
            ["receipt", "inspect", "-", "--json"], input: Data("not a receipt!".utf8))
        #expect(garbage.status == 1)
        #expect(try garbage.json()["reason"] as? String == "malformed_encoding")
        let badBase64 = try await CommandLineRunner.run(
            ["receipt", "inspect", "-", "--json"], input: Data("MIIabc=d".utf8))
        #expect(badBase64.status == 1)
        #expect(try badBase64.json()["reason"] as? String == "malformed_encoding")
        let otherApp = try await CommandLineRunner.run([
            "receipt", "inspect", production, "--bundle-id", "com.example", "--json",
        ])
        #expect(otherApp.status == 1)
        #expect(try otherApp.json()["reason"] as? String == "bundle_id_mismatch")
        let summary = try await CommandLineRunner.run(["receipt", "inspect", "-"], input: Data("garbage".utf8))
        #expect(summary.stdout.hasPrefix("REJECTED malformed_"))
    }

    @Test func usageErrorsExitTwo() async throws {
        #expect(try await CommandLineRunner.run(["receipt", "inspect", "/nonexistent/receipt"]).status == 2)
        #expect(try await CommandLineRunner.run(["receipt", "inspect"]).status == 2)
        #expect(try await CommandLineRunner.run(["receipt", "inspect", production, "--no-such-option"]).status == 2)
        #expect(try await CommandLineRunner.run(["receipt", "inspect", production, "--root", production]).status == 2)
        #expect(try await CommandLineRunner.run(["--help"]).status == 0)
    }
}

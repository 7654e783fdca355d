import AppStoreModel
import AppStoreSigning
import Foundation
import Testing

/// `storekeeper jws inspect`: the contract other tools rely on.
struct JWSInspectTests {
    @Test func payloadIsPrintedExactlyAsSigned() async throws {
        let path = CommandLineRunner.resource("jws/QysmatApp-transaction-1.jws")
        let output = try await CommandLineRunner.run(["jws", "inspect", path, "--json"])
        #expect(output.status == 0, "\(output.stdout)")
        let json = try output.json()
        #expect(json["verified"] as? Bool == true)
        let payload = try #require(json["payload"] as? NSDictionary)
        let signed = try String(contentsOfFile: path, encoding: .utf8).split(separator: ".")[1]
        var base64 = signed.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let expected =
            try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: base64))) as? NSDictionary
        #expect(payload == expected)
        #expect(payload["webOrderLineItemId"] as? String == "2000000023886982")
        #expect(payload["signedDate"] as? Int64 == 1_679_899_657_454)
    }

    @Test func surroundingWhitespaceAndStandardInput() async throws {
        let jws = try String(contentsOfFile: CommandLineRunner.resource("jws/go-iap-renewal-1.jws"), encoding: .utf8)
        let output = try await CommandLineRunner.run(["jws", "inspect", "-"], input: Data("\n  \(jws)  \n\n".utf8))
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("VERIFIED JWS"))
        #expect(output.stdout.contains("co.ringalarm.swtich.quarterly2"))
    }

    @Test func nestedSignedDataIsVerifiedAndDecoded() async throws {
        let chain = try SigningChain.generate(.es256)
        let signer = try JWSSigner(chain: chain)
        let transaction = try signer.sign(
            JWSTransactionDecodedPayload(
                transactionId: "1000000000000001",
                bundleId: "com.example.game",
                productId: "coins100",
                quantity: 1,
                type: .consumable,
                signedDate: Int64(Date().timeIntervalSince1970 * 1000),
                environment: .sandbox
            )
        )
        let notification = try signer.sign(
            ResponseBodyV2DecodedPayload(
                notificationType: .oneTimeCharge,
                notificationUUID: UUID().uuidString,
                data: NotificationData(
                    bundleId: "com.example.game", environment: .sandbox, signedTransactionInfo: transaction),
                version: "2.0",
                signedDate: Int64(Date().timeIntervalSince1970 * 1000)
            )
        )
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent("root.der")
        try Data(chain.rootCertificateDER).write(to: root)

        let output = try await CommandLineRunner.run(
            ["jws", "inspect", "-", "--root", root.path, "--json"], input: Data(notification.utf8))
        #expect(output.status == 0, "\(output.stdout)")
        let json = try output.json()
        let payload = try #require(json["payload"] as? [String: Any])
        #expect(payload["notificationType"] as? String == "ONE_TIME_CHARGE")
        let data = try #require(payload["data"] as? [String: Any])
        #expect(data["signedTransactionInfo"] as? String == transaction, "nested signed fields stay strings")
        let nested = try #require(json["nested"] as? [String: Any])
        let nestedTransaction = try #require(nested["signedTransactionInfo"] as? [String: Any])
        #expect(nestedTransaction["transactionId"] as? String == "1000000000000001")

        let withAppleRoots = try await CommandLineRunner.run(
            ["jws", "inspect", "-", "--json"], input: Data(notification.utf8))
        #expect(withAppleRoots.status == 1)
        #expect(try withAppleRoots.json()["reason"] as? String == "chain_untrusted")
    }

    @Test func malformedInputIsRejectedNotCrashed() async throws {
        for input in ["", "a.b", "....", "eyJhbGciOiJub25lIn0.e30.", String(repeating: "A", count: 300_000)] {
            let output = try await CommandLineRunner.run(["jws", "inspect", "-", "--json"], input: Data(input.utf8))
            #expect(output.status == 1, "input \(input.prefix(20)) gave \(output.status): \(output.stderr)")
            #expect((try? output.json())?["verified"] as? Bool == false)
        }
    }
}

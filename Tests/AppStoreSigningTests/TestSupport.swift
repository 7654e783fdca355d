import AppStoreModel
import AppStoreSigning
import Foundation
import SwiftASN1
import TestProcesses

/// Chains shared by the tests; generating RSA keys is the slow part of the suite.
enum SharedChains {
    private static let es256Result = Result { try SigningChain.generate(.es256) }
    private static let rsaResult = Result { try SigningChain.generate(.rsa2048) }

    static func es256() throws -> SigningChain { try es256Result.get() }
    static func rsa() throws -> SigningChain { try rsaResult.get() }
}

/// Sample data with known encodings.
enum Fixtures {
    /// 2024-02-23T10:11:12Z.
    static let creationDate = Date(timeIntervalSince1970: 1_708_683_072)

    static func receipt() -> AppReceipt {
        AppReceipt(
            receiptType: "ProductionSandbox",
            bundleId: "com.example.storekeeper",
            appVersion: "42",
            opaqueValue: Data([0x01, 0x02, 0x03, 0x04]),
            sha1Hash: Data(repeating: 0xAB, count: 20),
            creationDate: creationDate,
            originalAppVersion: "1.0",
            originalPurchaseDate: creationDate.addingTimeInterval(-86_400),
            inAppPurchases: [
                InAppPurchase(
                    quantity: 1,
                    productId: "com.example.monthly",
                    transactionId: "2000000000000001",
                    originalTransactionId: "2000000000000000",
                    purchaseDate: creationDate.addingTimeInterval(-3_600),
                    originalPurchaseDate: creationDate.addingTimeInterval(-7_200),
                    subscriptionExpirationDate: creationDate.addingTimeInterval(30 * 86_400),
                    webOrderLineItemId: 1_000_000_123,
                    isTrialPeriod: false,
                    isInIntroOfferPeriod: true,
                    promotionalOfferId: "offer-1"
                ),
                InAppPurchase(
                    quantity: 3,
                    productId: "com.example.coins",
                    transactionId: "2000000000000002",
                    originalTransactionId: "2000000000000002",
                    purchaseDate: creationDate.addingTimeInterval(-60)
                ),
            ]
        )
    }
}

/// One decoded `ReceiptAttribute`.
struct DecodedAttribute: Equatable {
    var type: Int
    var version: Int
    var value: [UInt8]
}

/// Decodes a DER `SET OF ReceiptAttribute` independently of the encoder under test.
func decodeAttributes(_ der: [UInt8]) throws -> [DecodedAttribute] {
    let root = try DER.parse(der)
    guard root.identifier == .set, case .constructed(let children) = root.content else {
        throw TestFailure("payload is not a constructed SET")
    }
    return try children.map { node in
        try DER.sequence(node, identifier: .sequence) { nodes in
            let type = try Int(derEncoded: &nodes)
            let version = try Int(derEncoded: &nodes)
            let value = try ASN1OctetString(derEncoded: &nodes)
            return DecodedAttribute(type: type, version: version, value: Array(value.bytes))
        }
    }
}

/// Decodes base64url without padding.
func base64URLDecode(_ text: some StringProtocol) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64)
}

/// A failed expectation inside a helper.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A directory removed by ``remove()``.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("AppStoreSigningTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ bytes: some DataProtocol, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Runs the `openssl` command-line tool.
enum OpenSSL {
    struct Outcome {
        var status: Int32
        var standardError: String
    }

    static func run(_ arguments: [String], in directory: TemporaryDirectory) throws -> Outcome {
        let errorPath = directory.path("openssl-\(UUID().uuidString).err")
        let termination = try ChildProcess.spawn(
            "/usr/bin/env", ["openssl"] + arguments, standardError: .file(errorPath)
        ).waitBlocking()
        let standardError = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return Outcome(status: termination.shellStatus, standardError: standardError)
    }
}

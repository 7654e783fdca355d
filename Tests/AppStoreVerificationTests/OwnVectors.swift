import AppStoreModel
import AppStoreSigning
import AppStoreVerification
import Foundation

/// Vectors signed in the test by chains of our own, shaped like Apple's.
enum OwnVectors {
    /// One ES256 chain and one RSA chain shared by the tests (RSA keys are slow to make).
    static let es256Chain = try! SigningChain.generate(.es256)
    static let rsaChain = try! SigningChain.generate(.rsa2048)

    static var es256Roots: TrustRoots { TrustRoots([es256Chain.root]) }
    static var rsaRoots: TrustRoots { TrustRoots([rsaChain.root]) }

    static func milliseconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1000) }

    static func transaction(signedAt date: Date = Date(), id: String = "2000000000000001")
        -> JWSTransactionDecodedPayload
    {
        JWSTransactionDecodedPayload(
            transactionId: id,
            originalTransactionId: id,
            bundleId: "com.example.game",
            productId: "coins100",
            purchaseDate: milliseconds(date),
            quantity: 1,
            type: .consumable,
            appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138",
            signedDate: milliseconds(date),
            environment: .sandbox
        )
    }

    static func receipt(createdAt date: Date = Date(), purchases: Int = 3) -> AppReceipt {
        AppReceipt(
            receiptType: "ProductionSandbox",
            bundleId: "com.example.game",
            appVersion: "42",
            opaqueValue: Data([1, 2, 3, 4]),
            sha1Hash: Data(repeating: 0xAB, count: 20),
            creationDate: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)),
            originalAppVersion: "1.0",
            inAppPurchases: (0..<purchases).map { index in
                let purchased = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
                return InAppPurchase(
                    quantity: index + 1,
                    productId: "coins\(index)",
                    transactionId: "100000000000000\(index)",
                    originalTransactionId: "100000000000000\(index)",
                    purchaseDate: purchased,
                    originalPurchaseDate: purchased,
                    subscriptionExpirationDate: index == 1 ? purchased.addingTimeInterval(3600) : nil,
                    cancellationDate: index == 2 ? purchased.addingTimeInterval(60) : nil,
                    webOrderLineItemId: index == 1 ? 4_000_000_123 : nil,
                    isTrialPeriod: index == 1 ? false : nil,
                    isInIntroOfferPeriod: index == 1 ? true : nil,
                    promotionalOfferId: index == 1 ? "spring" : nil
                )
            }
        )
    }

    /// Replaces one base64url segment of a compact JWS.
    static func replacingSegment(_ index: Int, of jws: String, with bytes: Data) -> String {
        var parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[index] = bytes.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return parts.joined(separator: ".")
    }
}

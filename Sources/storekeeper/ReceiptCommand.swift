import AppStoreModel
import AppStoreVerification
import ArgumentParser
import Foundation

/// `storekeeper receipt`: app receipts (StoreKit 1, PKCS#7).
struct ReceiptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt",
        abstract: "Work with app receipts.",
        subcommands: [ReceiptInspectCommand.self]
    )
}

/// `storekeeper receipt inspect FILE`: verify and decode a receipt.
struct ReceiptInspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Verify a receipt's signature and chain, then print what it holds.",
        discussion: "FILE holds base64 text or raw DER; '-' reads standard input. Exit 0 verified, 1 rejected, 2 usage."
    )

    @Argument(help: "The receipt file, or - for standard input.")
    var file: String

    @OptionGroup var options: VerificationOptions

    func run() async throws {
        let bytes = try InputFile.read(file)
        let verifier = ReceiptVerifier(roots: try options.trustRoots(), policy: options.policy)
        let verified: VerifiedReceipt
        do {
            verified = try await verifier.verify(bytes)
        } catch {
            throw options.reportRejection(error)
        }
        let report = ReceiptReport(verified)
        if options.json {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.summary)
        }
    }
}

/// The `--json` form of a verified receipt: the CLI's public contract.
struct ReceiptReport: Encodable {
    struct Receipt: Encodable {
        var bundleId: String
        var appVersion: String
        var originalAppVersion: String?
        var receiptType: String?
        var creationDate: Date
        var inApp: [InApp]
    }

    struct InApp: Encodable {
        var quantity: Int
        var productId: String
        var transactionId: String
        var originalTransactionId: String
        var purchaseDate: Date
        var originalPurchaseDate: Date?
        var expiresDate: Date?
        var cancellationDate: Date?
        var webOrderLineItemId: Int64?
    }

    var verified = true
    var digestAlgorithm: String
    var signer: String
    var receipt: Receipt

    init(_ verified: VerifiedReceipt) {
        let receipt = verified.receipt
        digestAlgorithm = verified.digestAlgorithm
        signer = verified.certificateChain.first.map { String(describing: $0.subject) } ?? ""
        self.receipt = Receipt(
            bundleId: receipt.bundleId,
            appVersion: receipt.appVersion,
            originalAppVersion: receipt.originalAppVersion,
            receiptType: receipt.receiptType,
            creationDate: receipt.creationDate,
            inApp: receipt.inAppPurchases.map { purchase in
                InApp(
                    quantity: purchase.quantity,
                    productId: purchase.productId,
                    transactionId: purchase.transactionId,
                    originalTransactionId: purchase.originalTransactionId,
                    purchaseDate: purchase.purchaseDate,
                    originalPurchaseDate: purchase.originalPurchaseDate,
                    expiresDate: purchase.subscriptionExpirationDate,
                    cancellationDate: purchase.cancellationDate,
                    webOrderLineItemId: purchase.webOrderLineItemId
                )
            }
        )
    }

    /// A few readable lines.
    var summary: String {
        let dates = ISO8601DateFormatter()
        var lines = [
            "VERIFIED receipt (\(digestAlgorithm), signed by \(signer))",
            "  bundle id:       \(receipt.bundleId)",
            "  app version:     \(receipt.appVersion) (originally \(receipt.originalAppVersion ?? "unknown"))",
            "  receipt type:    \(receipt.receiptType ?? "unknown")",
            "  created:         \(dates.string(from: receipt.creationDate))",
            "  in-app purchases: \(receipt.inApp.count)",
        ]
        for purchase in receipt.inApp {
            lines.append(
                "    \(purchase.transactionId)  \(purchase.productId) x\(purchase.quantity)  "
                    + dates.string(from: purchase.purchaseDate)
                    + (purchase.cancellationDate == nil ? "" : "  CANCELLED")
            )
        }
        return lines.joined(separator: "\n")
    }
}

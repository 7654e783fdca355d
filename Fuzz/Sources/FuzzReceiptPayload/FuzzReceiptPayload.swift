// libFuzzer target: the receipt payload decoder (a DER `SET OF ReceiptAttribute`, nested
// sets for in-app purchases, and the DER strings, integers and RFC 3339 dates inside).
//
// Beyond "no trap, no hang": a payload that decodes is re-encoded with AppStoreSigning's
// `ReceiptPayloadEncoder` (what the emulator signs) and must decode to the same receipt,
// up to what the encoding normalizes (whole seconds, DER set order of the purchases).

import AppStoreModel
import AppStoreSigning
import Foundation
import FuzzSupport

@testable import AppStoreVerification

@main
enum Entry {
    static func main() { LibFuzzer.run(fuzzReceiptPayload) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReceiptPayload(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = LibFuzzer.bytes(data, size)
    let bytes = Array(input)
    guard let receipt = try? ReceiptPayloadDecoder.decode(bytes[...]) else { return 0 }
    checkRoundTrip(receipt)
    return 0
}

/// Re-encodes `receipt` and checks that it decodes to the same receipt.
private func checkRoundTrip(_ receipt: AppReceipt) {
    // The emulator's encoder formats dates with Foundation's Gregorian calendar (Julian
    // before 1582) in four digits: only compare receipts whose dates it can write.
    guard dates(of: receipt).allSatisfy({ comparableDates.contains($0) }) else { return }
    let encoded: [UInt8]
    do {
        encoded = try ReceiptPayloadEncoder.encode(receipt)
    } catch {
        return  // the encoder refuses some strings; that is the emulator's concern
    }
    let again: AppReceipt
    do {
        again = try ReceiptPayloadDecoder.decode(encoded[...])
    } catch {
        fatalError("a decoded receipt, re-encoded, no longer decodes: \(error)")
    }
    precondition(
        normalized(again) == normalized(receipt),
        "a decoded receipt, re-encoded, decodes differently:\n\(receipt)\n\(again)")
}

private let comparableDates =
    Date(timeIntervalSince1970: -11_676_096_000)...Date(timeIntervalSince1970: 221_845_392_000)  // 1600–9000

private func dates(of receipt: AppReceipt) -> [Date] {
    [receipt.creationDate, receipt.originalPurchaseDate, receipt.expirationDate].compactMap { $0 }
        + receipt.inAppPurchases.flatMap { purchase in
            [
                purchase.purchaseDate, purchase.originalPurchaseDate, purchase.subscriptionExpirationDate,
                purchase.cancellationDate,
            ].compactMap { $0 }
        }
}

/// `receipt` with dates truncated to whole seconds and its purchases as a multiset.
private func normalized(_ receipt: AppReceipt) -> NormalizedReceipt {
    func second(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
    var receipt = receipt
    receipt.creationDate = second(receipt.creationDate)
    receipt.originalPurchaseDate = receipt.originalPurchaseDate.map(second)
    receipt.expirationDate = receipt.expirationDate.map(second)
    let purchases = receipt.inAppPurchases.map { purchase in
        var purchase = purchase
        purchase.purchaseDate = second(purchase.purchaseDate)
        purchase.originalPurchaseDate = purchase.originalPurchaseDate.map(second)
        purchase.subscriptionExpirationDate = purchase.subscriptionExpirationDate.map(second)
        purchase.cancellationDate = purchase.cancellationDate.map(second)
        return (purchase, 1)
    }
    receipt.inAppPurchases = []
    return NormalizedReceipt(receipt: receipt, purchases: Dictionary(purchases, uniquingKeysWith: +))
}

private struct NormalizedReceipt: Equatable {
    var receipt: AppReceipt
    var purchases: [InAppPurchase: Int]
}

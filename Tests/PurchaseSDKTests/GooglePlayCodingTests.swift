import Foundation
import Testing

@testable import PurchaseSDK

/// The Google Play purchase on the wire (`POST /v1/purchases`'s `googlePlay`) and in the
/// journal, where entries written before it still load.
@Suite struct GooglePlayCodingTests {
    private let purchase = GooglePlayPurchase(productId: "coins100", purchaseToken: "tok.en-1", orderId: "GPA.1")

    @Test func theReportCarriesGooglePlayUnderTheServersNames() throws {
        let body = PurchaseReportBody(orderId: "order-1", googlePlay: purchase)
        let json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(body)) as? [String: Any])
        #expect(Set(json.keys) == ["orderId", "googlePlay"])
        let googlePlay = try #require(json["googlePlay"] as? [String: String])
        #expect(googlePlay == ["productId": "coins100", "purchaseToken": "tok.en-1", "orderId": "GPA.1"])

        let pending = PurchaseReportBody(
            orderId: "order-1", googlePlay: GooglePlayPurchase(productId: "coins100", purchaseToken: "t", orderId: nil))
        let pendingJSON = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(pending)) as? [String: Any])
        #expect((pendingJSON["googlePlay"] as? [String: String])?.keys.sorted() == ["productId", "purchaseToken"])
    }

    @Test func aJournaledRecordKeepsItsGooglePlayPurchase() throws {
        var record = PurchaseRecord(playerId: "p", productId: "coins100", now: Date(timeIntervalSince1970: 1))
        record.bind(
            StoreTransaction(
                transactionId: "GPA.1", productId: "coins100", appAccountToken: "a", signedTransaction: nil,
                googlePlay: purchase))
        let line = try JournalEntryCoding.line(for: record)
        let text = String(decoding: line.dropLast(), as: UTF8.self)
        guard case .record(let read, _) = JournalEntryCoding.entry(from: Substring(text), number: 1) else {
            Issue.record("the line did not load: \(text)")
            return
        }
        #expect(read.googlePlay == purchase)
        #expect(read == record)
    }

    @Test func aRecordJournaledBeforeGooglePlayStillLoads() throws {
        let json =
            #"{"attempts":0,"createdAt":1000,"id":"r1","origin":"game","playerId":"p","productId":"coins100","#
            + #""quantity":1,"signedTransaction":"jws","state":{"finished":{}},"transactionFinished":true,"#
            + #""transactionId":"2000","updatedAt":1000}"#
        let line = String(format: "%08x ", CRC32.checksum(Data(json.utf8))) + json
        guard case .record(let read, _) = JournalEntryCoding.entry(from: Substring(line), number: 1) else {
            Issue.record("an entry written before Google Play did not load")
            return
        }
        #expect(read.googlePlay == nil && read.transactionId == "2000" && read.signedTransaction == "jws")
    }

    @Test func bindingAnAppleTransactionKeepsTheRecordsGooglePlayPurchase() {
        var record = PurchaseRecord(playerId: "p", productId: "coins100", now: Date(timeIntervalSince1970: 1))
        record.googlePlay = purchase
        record.bind(
            StoreTransaction(
                transactionId: "GPA.1", productId: "coins100", appAccountToken: nil, signedTransaction: nil))
        #expect(record.googlePlay == purchase)
    }
}

import AppStoreAPI
import AsyncHTTPClient
import Foundation
import Testing

@testable import PurchaseServer

/// The reconciler reads every notification of its overlap (an hour by default) again on each pass. One
/// the ledger has processed is recognized by the UUID its payload names, before (and
/// instead of) verifying it; one naming any other UUID is still verified, and a forgery is
/// refused.
@Suite("Reconciler skips processed notifications unverified")
struct ReconcilerProcessedNotificationTests {
    @Test("a processed notification is a duplicate without verification; a forged new one is rejected")
    func processedNotificationsAreNotVerifiedAgain() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        _ = try await fixture.pay(token: order.appAccountToken)
        let first = try await fixture.reconciler(holder: "this-instance") { _ in nil }.run()
        #expect(first.processed >= 1)
        #expect(try await fixture.wallet("alice") == ["coins": 100])

        // Every signature broken: only a skip that does not verify can call these duplicates.
        let broken = try await fixture.reconciler(holder: "this-instance") { request in
            try await Self.history(request) { jws in Self.replacingSegment(2, of: jws, with: "AAAA") }
        }.run()
        #expect(broken.fetched == first.fetched)
        #expect(broken.duplicates == first.fetched, "\(broken)")
        #expect(broken.rejected == 0)

        // A payload naming a UUID never seen is verified, and the broken signature refused.
        let forged = try await fixture.reconciler(holder: "this-instance") { request in
            try await Self.history(request) { jws in
                let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
                let payload = try JSONSerialization.jsonObject(with: try base64URLDecode(String(segments[1])))
                var object = try #require(payload as? [String: Any])
                object["notificationUUID"] = UUID().uuidString
                let forgedPayload = try JSONSerialization.data(withJSONObject: object)
                return Self.replacingSegment(1, of: jws, with: base64URLEncode(forgedPayload))
            }
        }.run()
        #expect(forged.rejected == first.fetched, "\(forged)")
        #expect(forged.processed == 0)
        #expect(forged.duplicates == 0)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test("each pass reads Apple's history again from its checkpoint less the configured overlap, and no further")
    func overlapBoundsWhatAPassReadsAgain() async throws {
        let fixture = try await ServerFixture(
            .sqlite, notifications: false, configure: { $0.reconcilerOverlapSeconds = 60 })
        defer { Task { await fixture.shutdown() } }
        #expect(try await fixture.server.reconciler?.overlap == 60)
        let order = try await fixture.order("alice")
        _ = try await fixture.pay(token: order.appAccountToken)
        let first = try await fixture.reconciler(holder: "this-instance", overlap: 0) { _ in nil }.run()
        #expect(first.fetched >= 1)

        // Nothing was issued since the first pass: with no overlap the next pass reads none
        // of it again; with an hour, all of it; either way from the checkpoint less the overlap.
        let none = try await fixture.reconciler(holder: "this-instance", overlap: 0) { _ in nil }.run()
        // (The checkpoint keeps milliseconds.)
        #expect(abs(none.startDate.timeIntervalSince(first.endDate)) < 0.001)
        #expect(none.fetched == 0)
        let hour = try await fixture.reconciler(holder: "this-instance", overlap: 3_600) { _ in nil }.run()
        #expect(abs(hour.startDate.timeIntervalSince(none.endDate.addingTimeInterval(-3_600))) < 0.001)
        #expect(hour.fetched == first.fetched)
        #expect(hour.duplicates == first.fetched)
    }

    /// Apple's answer to a history request, each notification's `signedPayload` rewritten.
    private static func history(
        _ request: HTTPRequestData, _ rewrite: (String) throws -> String
    ) async throws -> HTTPResponseData? {
        let answer = try await AsyncHTTPClientTransport(client: .loopback).send(request)
        var page = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
        let items = try #require(page["notificationHistory"] as? [[String: Any]])
        page["notificationHistory"] = try items.map { item in
            var item = item
            item["signedPayload"] = try rewrite(try #require(item["signedPayload"] as? String))
            return item
        }
        return HTTPResponseData(
            status: answer.status, headers: answer.headers, body: try JSONSerialization.data(withJSONObject: page))
    }

    private static func replacingSegment(_ index: Int, of jws: String, with segment: String) -> String {
        var parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[index] = segment
        return parts.joined(separator: ".")
    }
}

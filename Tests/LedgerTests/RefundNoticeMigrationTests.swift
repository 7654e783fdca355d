import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// Migration 11 moves refund decisions from the history's JSON to `refund_notices`: what an
/// older release recorded before the migration is carried over, what it records during a
/// rolling upgrade is carried over by the trigger, and this release's own notices are
/// recorded once.
struct RefundNoticeMigrationTests {
    @Test("notices recorded before and during the upgrade decide deliveries after it", arguments: StoreKind.allCases)
    func noticesOfThePreviousReleaseAreKept(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        let store = try #require(try database.open() as? any SQLLedgerStore)
        try await store.migrate(through: 10)
        let (partial, reversed, revoked, refunded) = (
            Fixture.transactionId(), Fixture.transactionId(), Fixture.transactionId(), Fixture.transactionId()
        )
        // Before the migration, as the previous release wrote them: a refund of half, and a
        // whole refund whose reversal (signed later) arrived first.
        try await Self.recordAsThePreviousRelease(store, partial, "REFUND", share: 50_000, signedAt: 1_000)
        try await Self.recordAsThePreviousRelease(store, reversed, "REFUND_REVERSED", signedAt: 2_000)
        try await Self.recordAsThePreviousRelease(store, reversed, "REFUND", signedAt: 1_000)
        try await Self.recordAsThePreviousRelease(store, partial, "CONSUMPTION_REQUEST", signedAt: 1_500)
        try await store.migrate()

        // During the rolling upgrade an instance of the previous release records a revocation.
        try await Self.recordAsThePreviousRelease(store, revoked, "REVOKE", share: 30_000, signedAt: 3_000)
        // This release records its own notice once (the trigger finds it recorded).
        #expect(
            try await store.recordNotification(
                store: .appStore,
                notificationUUID: UUID().uuidString, type: "REFUND", subtype: nil, transactionId: refunded,
                signedDate: Date(timeIntervalSince1970: 4), refund: RefundNoticeFixture.notice("REFUND"),
                receivedAt: Date()))

        #expect(try await Self.noticeCount(store, partial) == 1, "the consumption request is no refund notice")
        #expect(try await Self.noticeCount(store, reversed) == 2)
        #expect(try await Self.noticeCount(store, revoked) == 1)
        #expect(try await Self.noticeCount(store, refunded) == 1)

        let half = try await store.deliver(Fixture.delivery(transactionId: partial)).purchase
        #expect(half.refundedShare == 50_000)
        #expect(half.refundReason == "REFUND")
        #expect(try await store.deliver(Fixture.delivery(transactionId: reversed)).purchase.refundedShare == 0)
        let revocation = try await store.deliver(Fixture.delivery(transactionId: revoked)).purchase
        #expect(revocation.refundedShare == 30_000)
        #expect(revocation.refundReason == "REVOKE")
        await #expect(throws: LedgerError.transactionRevoked(transactionId: refunded)) {
            try await store.deliver(Fixture.delivery(transactionId: refunded))
        }
        try await store.close()
    }

    /// Records a notification the way the release before migration 11 did: its row and its
    /// history event, whose detail alone said what it meant for the refund state.
    private static func recordAsThePreviousRelease(
        _ store: any SQLLedgerStore, _ transactionId: String, _ type: String, share: Int? = nil, signedAt: Int64
    ) async throws {
        let uuid = UUID().uuidString
        let now = Date().ledgerNormalized
        var fields = ["notificationUUID": uuid, "notificationType": type, "signedDate": String(signedAt)]
        fields["revokedShare"] = share.map(String.init)
        let detail = LedgerJSON.text(fields)
        try await store.write(
            .execute(
                LedgerStatement(
                    """
                    INSERT INTO notifications (notification_uuid, notification_type, subtype, transaction_id, received_at)
                    VALUES (?, ?, NULL, ?, ?)
                    """,
                    [.text(uuid), .text(type), .text(transactionId), .timestamp(now)])
            )
            .then {
                .execute(
                    LedgerStatement(
                        """
                        INSERT INTO history_events (type, player_id, order_id, transaction_id, detail, created_at)
                        VALUES (?, (SELECT player_id FROM purchases WHERE transaction_id = ?),
                                (SELECT order_id FROM purchases WHERE transaction_id = ?), ?, ?, ?)
                        """,
                        [
                            .text("notification_received"), .text(transactionId), .text(transactionId),
                            .text(transactionId), .text(detail), .timestamp(now),
                        ]))
            })
    }

    /// How many refund notices are recorded for `transactionId`.
    private static func noticeCount(_ store: any SQLLedgerStore, _ transactionId: String) async throws -> Int64 {
        try await store.read(
            .first(
                LedgerStatement(
                    "SELECT count(*) AS notices FROM refund_notices WHERE transaction_id = ?", [.text(transactionId)])
            ) { try $0.requiredInteger("notices") }) ?? 0
    }
}

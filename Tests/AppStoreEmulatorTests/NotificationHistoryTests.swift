import AppStoreAPI
import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import Foundation
import HummingbirdTesting
import Testing

/// Get Notification History over HTTP: Apple's filters, window and codes.
struct NotificationHistoryTests {
    /// The `notificationType` of every notification of the first page of `request`.
    private func history(
        _ api: AppStoreServerAPIClient, _ request: NotificationHistoryRequest, _ verifier: JWSVerifier
    ) async throws -> [NotificationType] {
        let page = try await api.getNotificationHistory(request)
        var types: [NotificationType] = []
        for item in page.notificationHistory ?? [] {
            let signed = try #require(item.signedPayload)
            let notification = try await verifier.verifyNotification(signed).notification
            types.append(try #require(notification.notificationType))
        }
        return types
    }

    @Test func aTransactionIdNarrowsTheHistoryToItsCustomer() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let start = Date().addingTimeInterval(-5)
        let first = try await fixture.buy("coins100")
        let second = try await fixture.buy("vip.monthly")
        try await fixture.emulator.refund(transactionId: first)
        _ = try await fixture.buy("coins100", on: "someone-else")
        let verifier = JWSVerifier(roots: fixture.emulator.trustRoots)
        try await fixture.live { baseURL, _ in
            let api = fixture.serverAPI(baseURL)
            let window = NotificationHistoryRequest(start: start, end: Date().addingTimeInterval(60))
            let all = try await history(api, window, verifier)
            #expect(all.count == 4)
            for id in [first, second] {
                var customer = window
                customer.transactionId = id
                #expect(
                    try await history(api, customer, verifier) == [
                        .oneTimeCharge, .subscribed, .refund,
                    ], "every notification of the customer, whichever of their transactions names them")
            }
            var subscribed = window
            subscribed.notificationType = .subscribed
            subscribed.notificationSubtype = .initialBuy
            #expect(try await history(api, subscribed, verifier) == [.subscribed])
            subscribed.notificationSubtype = .resubscribe
            #expect(try await history(api, subscribed, verifier).isEmpty)
            var failures = window
            failures.onlyFailures = true
            #expect(
                try await history(api, failures, verifier).count == 4,
                "no URL: none was delivered")
        }
    }

    @Test func refusedRequestsGetApplesCodes() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let id = try await fixture.buy("coins100")
        let now = Date()
        let day = 86_400.0
        let refused: [(String, NotificationHistoryRequest, APIErrorCode)] = [
            ("sandbox", NotificationHistoryRequest(startDate: nil, endDate: 1), .invalidStartDate),
            ("sandbox", NotificationHistoryRequest(startDate: 1, endDate: nil), .invalidEndDate),
            ("sandbox", NotificationHistoryRequest(start: now, end: now), .startDateAfterEndDate),
            (
                "sandbox", NotificationHistoryRequest(start: now, end: now.addingTimeInterval(-1)),
                .startDateAfterEndDate
            ),
            (
                "sandbox", NotificationHistoryRequest(start: now.addingTimeInterval(-31 * day), end: now),
                .startDateTooFarInPast
            ),
            (
                "production", NotificationHistoryRequest(start: now.addingTimeInterval(-181 * day), end: now),
                .startDateTooFarInPast
            ),
            (
                "sandbox",
                NotificationHistoryRequest(start: now.addingTimeInterval(-60), end: now, notificationType: "PARTY"),
                .invalidNotificationType
            ),
            (
                "sandbox",
                NotificationHistoryRequest(
                    start: now.addingTimeInterval(-60), end: now, notificationType: .refund,
                    notificationSubtype: .initialBuy),
                .invalidNotificationType
            ),
            (
                "sandbox",
                NotificationHistoryRequest(
                    start: now.addingTimeInterval(-60), end: now, notificationSubtype: .initialBuy),
                .invalidNotificationType
            ),
            (
                "sandbox",
                NotificationHistoryRequest(
                    start: now.addingTimeInterval(-60), end: now, notificationType: .refund, transactionId: id),
                .multipleFiltersSupplied
            ),
            (
                "sandbox", NotificationHistoryRequest(start: now.addingTimeInterval(-60), end: now, transactionId: "x"),
                .invalidTransactionId
            ),
        ]
        try await fixture.live { _, client in
            for (environment, request, code) in refused {
                try expectAPIError(
                    try await fixture.call(
                        client, .post, "v1/notifications/history", environment: environment, body: JSON.body(request)),
                    .badRequest, code)
            }
            // 179 days back is within production's window.
            let production = try await fixture.call(
                client, .post, "v1/notifications/history", environment: "production",
                body: JSON.body(NotificationHistoryRequest(start: now.addingTimeInterval(-179 * day), end: now)))
            #expect(production.status == .ok)
            try expectAPIError(
                try await fixture.call(
                    client, .post, "v1/notifications/history",
                    body: JSON.body(
                        NotificationHistoryRequest(
                            start: now.addingTimeInterval(-60), end: now, transactionId: "2999999999999999"))),
                .notFound, .transactionIdNotFound)
        }
    }

    @Test func aPaginationTokenGoesWithTheRequestItWasIssuedFor() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let start = Date().addingTimeInterval(-5)
        for _ in 0..<21 { _ = try await fixture.buy("coins100") }
        try await fixture.live { baseURL, client in
            let window = NotificationHistoryRequest(start: start, end: Date().addingTimeInterval(60))
            let first = try await fixture.serverAPI(baseURL).getNotificationHistory(window)
            #expect(first.hasMore == true)
            let token = try #require(first.paginationToken)
            let second = try await fixture.serverAPI(baseURL).getNotificationHistory(window, paginationToken: token)
            #expect(second.notificationHistory?.count == 1)
            #expect(second.hasMore == false)
            #expect(second.paginationToken == nil)

            var other = window
            other.onlyFailures = true
            for (request, text) in [(other, token), (window, "7"), (window, token + "x")] {
                try expectAPIError(
                    try await fixture.call(
                        client, .post, "v1/notifications/history?paginationToken=\(text)", body: JSON.body(request)),
                    .badRequest, .invalidPaginationToken)
            }
        }
    }
}

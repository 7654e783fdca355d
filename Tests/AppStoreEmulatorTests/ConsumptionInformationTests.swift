import AppStoreAPI
import AppStoreEmulator
import AppStoreModel
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Send Consumption Information over HTTP: version 2 recorded with Apple's validation,
/// version 1 refused as Apple refuses it for an ordinary In-App Purchase.
struct ConsumptionInformationTests {
    private static let valid = ConsumptionRequest(
        customerConsented: true, sampleContentProvided: false, deliveryStatus: .delivered,
        consumptionPercentage: 25_000, refundPreference: .grantProrated)

    @Test func versionTwoIsRecordedAndReadBack() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let coins = try await fixture.buy("coins100")
        let subscription = try await fixture.buy("vip.monthly")
        try await fixture.emulator.requestConsumption(transactionId: coins)
        try await fixture.live { baseURL, client in
            let api = fixture.serverAPI(baseURL)
            let none = try await client.execute(uri: "/emulator/v1/transactions/\(coins)/consumption", method: .get)
            #expect(none.status == .notFound, "nothing sent yet")

            try await api.sendConsumptionInformation(transactionId: coins, Self.valid)
            let recorded = try await client.execute(uri: "/emulator/v1/transactions/\(coins)/consumption", method: .get)
            #expect(recorded.status == .ok)
            #expect(try JSON.decode(ConsumptionRequest.self, recorded.body) == Self.valid)
            let raw = try JSON.object(recorded.body)
            #expect(raw["deliveryStatus"] as? String == "DELIVERED")
            #expect(raw["refundPreference"] as? String == "GRANT_PRORATED")

            // A later answer replaces the first; no CONSUMPTION_REQUEST is needed (Apple
            // documents no error for it), and a subscription takes one without a share.
            let later = ConsumptionRequest(
                customerConsented: true, sampleContentProvided: true, deliveryStatus: .undeliveredServerOutage,
                consumptionPercentage: 0, refundPreference: .grantFull)
            try await api.sendConsumptionInformation(transactionId: coins, later)
            #expect(try await fixture.emulator.consumptionInformation(coins) == later)
            let prorated = ConsumptionRequest(
                customerConsented: true, sampleContentProvided: false, deliveryStatus: .delivered,
                refundPreference: .grantProrated)
            try await api.sendConsumptionInformation(transactionId: subscription, prorated)
            #expect(try await fixture.emulator.consumptionInformation(subscription) == prorated)

            let answer = try await fixture.call(
                client, .put, "v2/transactions/consumption/\(coins)", body: JSON.body(Self.valid))
            #expect(answer.status == .accepted)
            #expect(answer.body.readableBytes == 0)
        }
    }

    @Test func versionTwoRefusesWhatAppleRefuses() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let coins = try await fixture.buy("coins100")
        let subscription = try await fixture.buy("vip.monthly")
        @Sendable func with(_ change: (inout ConsumptionRequest) -> Void) -> ConsumptionRequest {
            var request = Self.valid
            change(&request)
            return request
        }
        let refused: [(String, ConsumptionRequest, APIErrorCode)] = [
            (coins, with { $0.customerConsented = false }, .invalidCustomerConsented),
            (coins, with { $0.customerConsented = nil }, .invalidCustomerConsented),
            (coins, with { $0.sampleContentProvided = nil }, .invalidSampleContentProvided),
            (coins, with { $0.deliveryStatus = nil }, .invalidDeliveryStatus),
            (coins, with { $0.deliveryStatus = "LOST" }, .invalidDeliveryStatus),
            (coins, with { $0.refundPreference = "GRANT_HALF" }, .invalidRefundPreference),
            // Apple documents ConsumptionPercentageOutOfRangeError and
            // UndeliveredConsumptionPercentageNonZeroError without their numbers.
            (coins, with { $0.consumptionPercentage = 100_001 }, .generalBadRequest),
            (coins, with { $0.consumptionPercentage = -1 }, .generalBadRequest),
            (coins, with { $0.deliveryStatus = .undeliveredOther }, .generalBadRequest),
            (coins, with { $0.consumptionPercentage = nil }, .generalBadRequest),
            (coins, with { $0.consumptionPercentage = Milliunits.whole }, .generalBadRequest),
            (subscription, Self.valid, .consumptionPercentageAutoRenewableSubscription),
        ]
        try await fixture.live { _, client in
            for (id, body, code) in refused {
                try expectAPIError(
                    try await fixture.call(client, .put, "v2/transactions/consumption/\(id)", body: JSON.body(body)),
                    .badRequest, code)
            }
            #expect(try await fixture.emulator.consumptionInformation(coins) == nil, "nothing refused is recorded")
            let names = try await fixture.call(
                client, .put, "v2/transactions/consumption/\(coins)",
                body: JSON.body(with { $0.deliveryStatus = .undeliveredWrongItem }))
            #expect(
                try JSON.decode(APIErrorResponse.self, names.body).errorMessage?.hasPrefix(
                    "UndeliveredConsumptionPercentageNonZeroError") == true)

            try expectAPIError(
                try await fixture.call(
                    client, .put, "v2/transactions/consumption/2999999999999999", body: JSON.body(Self.valid)),
                .notFound, .transactionIdNotFound)
            try expectAPIError(
                try await fixture.call(client, .put, "v2/transactions/consumption/abc", body: JSON.body(Self.valid)),
                .badRequest, .invalidTransactionId)
            try expectAPIError(
                try await fixture.call(
                    client, .put, "v2/transactions/consumption/\(coins)", environment: "production",
                    body: JSON.body(Self.valid)),
                .notFound, .transactionIdNotFound)
            try expectAPIError(
                try await fixture.call(
                    client, .put, "v2/transactions/consumption/\(coins)",
                    body: ByteBuffer(string: "{\"deliveryStatus\": 0")),
                .badRequest, .generalBadRequest)
            let appTransactionId = try #require(await fixture.emulator.ledger().first?.appTransactionId)
            try expectAPIError(
                try await fixture.call(
                    client, .put, "v2/transactions/consumption/\(appTransactionId)", body: JSON.body(Self.valid)),
                .badRequest, .appTransactionIdNotSupported)
        }
    }

    @Test func versionOneIsRefusedForInAppPurchases() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let coins = try await fixture.buy("coins100")
        try await fixture.emulator.requestConsumption(transactionId: coins)
        try await fixture.live { baseURL, client in
            do throws(AppStoreServerAPIError) {
                try await fixture.serverAPI(baseURL).sendConsumptionInformationV1(
                    transactionId: coins,
                    ConsumptionRequestV1(
                        customerConsented: true, consumptionStatus: 3, platform: 1, sampleContentProvided: false,
                        deliveryStatus: 0))
                Issue.record("V1 took an In-App Purchase's consumption information")
            } catch {
                #expect(error.httpStatus == 400)
                #expect(error.errorCode == .invalidTransactionTypeNotSupported)
            }
            #expect(try await fixture.emulator.consumptionInformation(coins) == nil)
            try expectAPIError(
                try await fixture.call(
                    client, .put, "v1/transactions/consumption/2999999999999999",
                    body: JSON.body(ConsumptionRequestV1(customerConsented: true))),
                .notFound, .transactionIdNotFound)
        }
    }
}

import AppStoreEmulator
import AppStoreModel
import Foundation
import HummingbirdTesting
import Testing

/// Finish Transaction over HTTP: the server's `finish()` empties the device's unfinished
/// list; Apple's codes for what it refuses.
struct FinishTransactionTests {
    @Test func finishingFromTheServerIsFinishingOnTheDevice() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let coins = try await fixture.buy("coins100")
        let potion = try await fixture.buy("potion")
        let refunded = try await fixture.buy("coins500")
        try await fixture.emulator.refund(transactionId: refunded)
        try await fixture.live { _, client in
            let unfinished = try await client.execute(
                uri: "/emulator/v1/devices/p/transactions/unfinished", method: .get)
            #expect(try JSON.decode([DeviceTransaction].self, unfinished.body).map(\.transactionId) == [coins, potion])

            let finished = try await fixture.call(client, .post, "v1/transactions/\(coins)/finish")
            #expect(finished.status == .ok)
            #expect(finished.body.readableBytes == 0)
            let after = try await client.execute(uri: "/emulator/v1/devices/p/transactions/unfinished", method: .get)
            #expect(try JSON.decode([DeviceTransaction].self, after.body).map(\.transactionId) == [potion])
            #expect(await fixture.emulator.ledger().first { $0.transactionId == coins }?.finished == true)

            // Again, or for a refunded transaction: nothing to do, and no error.
            #expect(try await fixture.call(client, .post, "v1/transactions/\(coins)/finish").status == .ok)
            #expect(try await fixture.call(client, .post, "v1/transactions/\(refunded)/finish").status == .ok)
        }
    }

    @Test func refusedRequestsGetApplesCodes() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let coins = try await fixture.buy("coins100")
        let appTransactionId = try #require(await fixture.emulator.ledger().first?.appTransactionId)
        try await fixture.live { _, client in
            try expectAPIError(
                try await fixture.call(client, .post, "v1/transactions/2999999999999999/finish"), .notFound,
                .transactionIdNotFound)
            try expectAPIError(
                try await fixture.call(client, .post, "v1/transactions/\(coins)/finish", environment: "production"),
                .notFound, .transactionIdNotFound)
            try expectAPIError(
                try await fixture.call(client, .post, "v1/transactions/\(appTransactionId)/finish"), .badRequest,
                .appTransactionIdNotSupported)
            try expectAPIError(
                try await fixture.call(client, .post, "v1/transactions/coins/finish"), .badRequest,
                .invalidTransactionId)
            #expect(try await fixture.emulator.unfinishedTransactions(deviceId: "p").map(\.transactionId) == [coins])
        }
    }
}

import AppStoreAPI
import AppStoreEmulator
import AppStoreModel
import Foundation
import Testing

/// verifyReceipt: Apple's statuses and what `in_app` holds.
struct VerifyReceiptTests {
    func request(_ receipt: String?, password: String? = nil) -> Data {
        try! JSONEncoder().encode(VerifyReceiptRequest(receiptData: receipt, password: password))
    }

    @Test func statusesFollowApple() async throws {
        let fixture = try await EmulatorFixture(sharedSecret: "s3cret")
        defer { fixture.remove() }
        let emulator = fixture.emulator
        let sandboxReceipt = try #require(
            try await emulator.purchase(deviceId: "sandbox-phone", PurchaseRequest(productId: "coins100")).appReceipt
        )
        try await emulator.updateDevice("prod-phone", settings: DeviceSettings(environment: .production))
        let productionReceipt = try #require(
            try await emulator.purchase(deviceId: "prod-phone", PurchaseRequest(productId: "coins100")).appReceipt
        )
        #expect(await emulator.verifyReceipt(request(sandboxReceipt), at: .sandbox).status == .valid)
        #expect(await emulator.verifyReceipt(request(productionReceipt), at: .production).status == .valid)
        #expect(
            await emulator.verifyReceipt(request(sandboxReceipt), at: .production).status
                == .sandboxReceiptSentToProduction)
        #expect(
            await emulator.verifyReceipt(request(productionReceipt), at: .sandbox).status
                == .productionReceiptSentToSandbox)
        #expect(await emulator.verifyReceipt(Data("not json".utf8), at: .sandbox).status == .invalidRequest)
        #expect(await emulator.verifyReceipt(request(nil), at: .sandbox).status == .malformedReceiptData)
        #expect(await emulator.verifyReceipt(request("%%%not-base64"), at: .sandbox).status == .malformedReceiptData)
        #expect(
            await emulator.verifyReceipt(request(Data("garbage".utf8).base64EncodedString()), at: .sandbox).status
                == .malformedReceiptData)
        #expect(
            await emulator.verifyReceipt(request(sandboxReceipt, password: "wrong"), at: .sandbox).status
                == .sharedSecretMismatch)
        #expect(
            await emulator.verifyReceipt(request(sandboxReceipt, password: "s3cret"), at: .sandbox).status == .valid)

        // A receipt signed by someone else's CA: 21003.
        let stranger = try await EmulatorFixture(ownReceiptChain: true)
        defer { stranger.remove() }
        let forged = try #require(
            try await stranger.emulator.purchase(deviceId: "x", PurchaseRequest(productId: "coins100")).appReceipt
        )
        #expect(await emulator.verifyReceipt(request(forged), at: .sandbox).status == .notAuthenticated)
    }

    @Test func consumablesLeaveTheReceiptWhenFinishedNonConsumablesStay() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        let coins = try await emulator.purchase(deviceId: "phone", PurchaseRequest(productId: "coins100", quantity: 2))
        let pack = try await emulator.purchase(deviceId: "phone", PurchaseRequest(productId: "levelpack1"))
        let before = await emulator.verifyReceipt(request(try await emulator.receipt(deviceId: "phone")), at: .sandbox)
        #expect(
            Set(before.receipt?.inApp?.compactMap(\.transactionId) ?? []) == [coins.transactionId, pack.transactionId])
        let coinItem = try #require(before.receipt?.inApp?.first { $0.transactionId == coins.transactionId })
        #expect(coinItem.quantity?.intValue == 2)
        #expect(coinItem.productId == "coins100")

        try await emulator.finishTransaction(deviceId: "phone", transactionId: try #require(coins.transactionId))
        try await emulator.finishTransaction(deviceId: "phone", transactionId: try #require(pack.transactionId))
        let after = await emulator.verifyReceipt(request(try await emulator.receipt(deviceId: "phone")), at: .sandbox)
        #expect(after.receipt?.inApp?.compactMap(\.transactionId) == [try #require(pack.transactionId)])
        // An old receipt still lists what it held when it was issued.
        let old = await emulator.verifyReceipt(request(coins.appReceipt ?? ""), at: .sandbox)
        #expect(old.receipt?.inApp?.compactMap(\.transactionId) == [try #require(coins.transactionId)])
    }

    @Test(
        "a purchase made without its receipt signs none; a receipt asked for later lists every unfinished consumable and everything else, after a restart too"
    )
    func receiptOnlyWhenAskedFor() async throws {
        let first = try await EmulatorFixture()
        defer { first.remove() }
        func buy(_ product: String, receipt: Bool = false) async throws -> PurchaseResult {
            try await first.emulator.purchase(
                deviceId: "phone", PurchaseRequest(productId: product), includesReceipt: receipt)
        }
        let coins = try await buy("coins100")
        #expect(coins.appReceipt == nil && coins.signedTransaction != nil)
        let pack = try await buy("levelpack1")
        let potion = try await buy("potion", receipt: true)
        let finished = try await buy("coins500")
        try await first.emulator.finishTransaction(
            deviceId: "phone", transactionId: try #require(finished.transactionId))
        let expected = Set([coins, pack, potion].map(\.transactionId))
        func listed(_ receipt: String?, at emulator: AppStoreEmulator) async -> Set<String?>? {
            await emulator.verifyReceipt(request(receipt), at: .sandbox).receipt?.inApp.map {
                Set($0.map(\.transactionId))
            }
        }
        #expect(await listed(try await first.emulator.receipt(deviceId: "phone"), at: first.emulator) == expected)
        #expect(await listed(potion.appReceipt, at: first.emulator) == expected)
        await first.emulator.shutdown()

        let second = try await EmulatorFixture(directory: first.directory)
        #expect(await listed(try await second.emulator.receipt(deviceId: "phone"), at: second.emulator) == expected)
        try await second.emulator.finishTransaction(deviceId: "phone", transactionId: try #require(coins.transactionId))
        #expect(
            await listed(try await second.emulator.receipt(deviceId: "phone"), at: second.emulator)
                == Set([pack, potion].map(\.transactionId)))
        await second.emulator.shutdown()
    }

    @Test func verifyReceiptClientFallsBackFromProductionToSandboxOverHTTP() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let receipt = try #require(
            try await fixture.emulator.purchase(deviceId: "phone", PurchaseRequest(productId: "potion")).appReceipt
        )
        try await fixture.live { baseURL, _ in
            let client = VerifyReceiptClient(
                productionBaseURL: baseURL.appendingPathComponent("production"),
                sandboxBaseURL: baseURL.appendingPathComponent("sandbox"),
                transport: AsyncHTTPClientTransport()
            )
            let response = try await client.verify(receiptData: receipt)
            #expect(response.status == .valid)
            #expect(response.environment == .sandbox)
            #expect(response.receipt?.inApp?.first?.productId == "potion")
            #expect(response.receipt?.inApp?.first?.purchaseDateValue != nil)
        }
    }

    @Test func injectedFaultsAreRetryableStatusesAndOutages() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let receipt = try #require(
            try await fixture.emulator.purchase(deviceId: "phone", PurchaseRequest(productId: "potion")).appReceipt
        )
        await fixture.emulator.setFaults(
            EmulatorFaults(seed: 1, endpoints: ["verifyReceipt": EndpointFaults(errorRate: 1)]))
        try await fixture.live { baseURL, _ in
            let client = VerifyReceiptClient(
                productionBaseURL: baseURL.appendingPathComponent("production"),
                sandboxBaseURL: baseURL.appendingPathComponent("sandbox"),
                transport: AsyncHTTPClientTransport()
            )
            for _ in 0..<10 {
                let response = try await client.verify(receiptData: receipt, in: .sandbox)
                #expect(response.isRetryable == true)
                #expect(
                    [21_005, 21_009].contains(response.status.rawValue)
                        || (21_100...21_199).contains(response.status.rawValue))
            }
            let now = Date()
            await fixture.emulator.setFaults(
                EmulatorFaults(endpoints: [
                    "verifyReceipt": EndpointFaults(outages: [
                        OutageWindow(start: now.addingTimeInterval(-1), end: now.addingTimeInterval(60))
                    ])
                ])
            )
            await #expect(throws: VerifyReceiptClientError.self) {
                _ = try await client.verify(receiptData: receipt, in: .sandbox)
            }
            await fixture.emulator.setFaults(EmulatorFaults())
            #expect(try await client.verify(receiptData: receipt, in: .sandbox).status == .valid)
            // Ten errors and one outage were injected; the answer that went through is not counted.
            #expect(await fixture.emulator.injectedFaults == ["verifyReceipt": 11])
        }
    }

    @Test func subscriptionsComeWithTheirPendingRenewalInfo() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        let vip = try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly"))
        let id = try #require(vip.transactionId)
        _ = try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "levelpack1"))
        let receipt = try await emulator.receipt(deviceId: "ann")

        let renewing = await emulator.verifyReceipt(request(receipt), at: .sandbox)
        #expect(renewing.status == .valid)
        let pending = try #require(renewing.pendingRenewalInfo)
        #expect(pending.count == 1, "one element per subscription, none for the level pack")
        #expect(pending.first?.originalTransactionId == id && pending.first?.productId == "vip.monthly")
        #expect(pending.first?.autoRenewProductId == "vip.monthly")
        #expect(
            pending.first?.autoRenewStatus == StringNumber(1)
                && pending.first?.isInBillingRetryPeriod == StringNumber(0))

        try await emulator.setAutoRenew(deviceId: "ann", originalTransactionId: id, enabled: false)
        let cancelled = await emulator.verifyReceipt(request(receipt), at: .sandbox)
        #expect(cancelled.pendingRenewalInfo?.first?.autoRenewStatus == StringNumber(0))
    }
}

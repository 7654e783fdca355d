import AppStoreModel
import EmulatorTestSupport
import Foundation
import Testing

@testable import AppStoreEmulator

/// Values from outside (a catalog, a device's purchase, fault JSON, the configuration, a
/// journal read back) that no 64-bit field or `Duration` holds: refused with a code, never
/// a crash.
struct UnrepresentableInputTests {
    private static func emulator(_ configure: (inout EmulatorConfiguration) -> Void = { _ in }) async throws
        -> (AppStoreEmulator, URL)
    {
        let directory = try TestEmulatorDirectory.make("emulator")
        var configuration = EmulatorConfiguration(
            dataDirectory: directory,
            catalog: EmulatorCatalog(products: [
                EmulatorProduct(productId: "hoard", type: .consumable, price: Int64.max / 2)
            ]))
        configure(&configuration)
        return (try await AppStoreEmulator(configuration: configuration), directory)
    }

    @Test func aPriceTimesQuantityBeyondInt64IsRefusedAsPriceOverflow() async throws {
        let (emulator, directory) = try await Self.emulator()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = await #expect(throws: EmulatorError.self) {
            _ = try await emulator.purchase(deviceId: "phone", PurchaseRequest(productId: "hoard", quantity: 3))
        }
        #expect(error?.code == "price_overflow")
        #expect(await emulator.ledger().isEmpty)
        let one = try await emulator.purchase(deviceId: "phone", PurchaseRequest(productId: "hoard", quantity: 2))
        #expect(one.outcome == "purchased")
        #expect(await emulator.ledger().map(\.price) == [Int64.max / 2 * 2])
    }

    @Test func anAskToBuyPurchaseWhosePriceOverflowsIsRefusedBeforeItWaits() async throws {
        let (emulator, directory) = try await Self.emulator()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await emulator.updateDevice("kid", settings: DeviceSettings(askToBuy: true))
        let error = await #expect(throws: EmulatorError.self) {
            _ = try await emulator.purchase(deviceId: "kid", PurchaseRequest(productId: "hoard", quantity: 10))
        }
        #expect(error?.code == "price_overflow")
        #expect(await emulator.pendingPurchases(deviceId: "kid").isEmpty)
    }

    @Test(arguments: [Double.infinity, -.infinity, .nan, -1])
    func aTimeScaleThatIsNoFactorIsAConfigurationError(timeScale: Double) async throws {
        let error = await #expect(throws: EmulatorError.self) {
            _ = try await Self.emulator { $0.timeScale = timeScale }
        }
        #expect(error?.code == "invalid_configuration")
    }

    @Test func notificationFaultDelaysBeyondInt64MillisecondsAreADecodingError() throws {
        for key in ["delayMs", "maxReorderDelayMs"] {
            #expect(throws: DecodingError.self, "\(key)") {
                try JSONDecoder().decode(NotificationFaults.self, from: Data(#"{"\#(key)": 1e300}"#.utf8))
            }
            #expect(throws: DecodingError.self, "\(key) through the emulator's faults") {
                try JSONDecoder().decode(EmulatorFaults.self, from: Data(#"{"notifications": {"\#(key)": 1e19}}"#.utf8))
            }
        }
    }

    @Test func theLongestAndNegativeNotificationFaultDelaysDecodeAndApply() throws {
        let longest = try JSONDecoder().decode(
            NotificationFaults.self,
            from: Data(#"{"delayMs": 9.2e18, "maxReorderDelayMs": 9.2e18, "delayRate": 1, "reorderRate": 1}"#.utf8))
        #expect(longest.delay == .milliseconds(9.2e18))
        #expect(longest.attemptFaults(uuid: "n", attemptNumber: 1).extraDelay >= longest.delay)
        let negative = try JSONDecoder().decode(
            NotificationFaults.self, from: Data(#"{"delayMs": -1e300, "maxReorderDelayMs": -1e300}"#.utf8))
        #expect(negative.delay == .zero && negative.maxReorderDelay == .zero)
    }

    @Test func aWebOrderLineItemIdNoInt64HoldsIsCorruptStateNotADroppedField() throws {
        let transaction = EmulatedTransaction(
            transactionId: "2000000000000001", originalTransactionId: "2000000000000001", deviceId: "phone",
            productId: "vip.monthly", type: .autoRenewable, quantity: 1, environment: .sandbox,
            purchaseDate: 1_708_683_072_000, expiresDate: 1_711_275_072_000,
            webOrderLineItemId: "99999999999999999999999", orderId: "MK00000001", price: 4_990, currency: "USD",
            finished: false, refundState: .none)
        let error = #expect(throws: EmulatorError.self) { _ = try transaction.inAppPurchase() }
        #expect(error?.code == "corrupt_state")
        #expect(error?.message.contains("99999999999999999999999") == true)

        var valid = transaction
        valid.webOrderLineItemId = "3000000000000001"
        #expect(try valid.inAppPurchase().webOrderLineItemId == 3_000_000_000_000_001)
    }
}

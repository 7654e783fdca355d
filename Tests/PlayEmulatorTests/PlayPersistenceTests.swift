import EmulatorTestSupport
import Foundation
import LedgerTestSupport
import PlayModel
import Testing

@testable import PlayEmulator

/// The Play side's purchases and voided records survive a restart on the same data
/// directory (`play-state.json` and its log); a save that fails changes nothing.
@Suite struct PlayPersistenceTests {
    static let package = "com.example.game"
    static let allVoided = VoidedPurchasesQuery(includeQuantityBasedPartialRefund: true)

    static func emulator(_ directory: URL?, clock: ManualClock) throws -> PlayEmulator {
        try PlayEmulator(
            packageName: package, dataDirectory: directory, baseURL: nil, now: { clock.now },
            products: { PlayProduct(productId: $0, isOneTime: true) })
    }

    /// A purchase acknowledged and partly refunded reads the same from a new emulator on the
    /// same directory: `products.get` and `voidedpurchases.list` answer as before.
    @Test func purchasesAndVoidedRecordsSurviveARestart() throws {
        let directory = try PlayFixture.keyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        let first = try Self.emulator(directory, clock: clock)
        let bought = try first.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins100", quantity: 3))
        try first.acknowledge(
            packageName: Self.package, productId: "coins100", token: bought.purchaseToken, developerPayload: "p")
        clock.advance(by: 60)
        _ = try first.control(
            deviceId: "d", token: bought.purchaseToken, .refund, refund: PlayDeviceRefundRequest(quantity: 1))
        let purchase = try first.productPurchase(
            packageName: Self.package, productId: "coins100", token: bought.purchaseToken)
        let voided = try first.voidedPurchases(packageName: Self.package, Self.allVoided)
        #expect(purchase.acknowledgementState == AcknowledgementState.acknowledged)
        #expect(purchase.refundableQuantity == 2)
        #expect(voided.voidedPurchases?.first?.voidedQuantity == 1)

        let second = try Self.emulator(directory, clock: clock)
        #expect(
            try second.productPurchase(packageName: Self.package, productId: "coins100", token: bought.purchaseToken)
                == purchase)
        #expect(try second.voidedPurchases(packageName: Self.package, Self.allVoided) == voided)
        #expect(try second.devicePurchases(deviceId: "d").purchases.map(\.purchaseToken) == [bought.purchaseToken])
    }

    /// A `play-state.json` that does not decode stops the start with `corrupt_state`, as a
    /// corrupt journal stops the App Store side, and is left as it was.
    @Test func aCorruptStateFileIsRefusedAndKept() throws {
        let directory = try PlayFixture.keyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(PlayStateFile.fileName)
        try Data("{\"version\": 1, \"purchases\": [".utf8).write(to: file)
        let error = try #require(throws: PlayEmulatorError.self) {
            try Self.emulator(directory, clock: ManualClock())
        }
        #expect(error.code == "corrupt_state")
        #expect(error.status == 500)
        #expect(try Data(contentsOf: file) == Data("{\"version\": 1, \"purchases\": [".utf8))
    }

    /// A change whose save fails (here the log's path is a directory) is refused with a
    /// 503 in each API's shape and leaves the state, memory and files, as it was.
    @Test func aFailedSaveChangesNothing() throws {
        let directory = try PlayFixture.keyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        let play = try Self.emulator(directory, clock: clock)
        let bought = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins100"))
        let log = directory.appendingPathComponent(PlayStateFile.logFileName)
        let saved = try Data(contentsOf: log)
        let aside = log.appendingPathExtension("aside")
        try FileManager.default.moveItem(at: log, to: aside)
        try FileManager.default.createDirectory(at: log, withIntermediateDirectories: false)

        let google = try #require(throws: GoogleErrorResponse.self) {
            try play.acknowledge(
                packageName: Self.package, productId: "coins100", token: bought.purchaseToken, developerPayload: nil)
        }
        #expect(google.error.code == 503)
        let device = try #require(throws: PlayEmulatorError.self) {
            try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "gems"))
        }
        #expect(device.code == "storage_unavailable")
        #expect(device.status == 503)
        let purchase = try play.productPurchase(
            packageName: Self.package, productId: "coins100", token: bought.purchaseToken)
        #expect(purchase.acknowledgementState == AcknowledgementState.yetToBeAcknowledged)
        #expect(try play.devicePurchases(deviceId: "d").purchases.map(\.purchaseToken) == [bought.purchaseToken])
        try FileManager.default.removeItem(at: log)
        try FileManager.default.moveItem(at: aside, to: log)
        #expect(try Data(contentsOf: log) == saved)

        try play.acknowledge(
            packageName: Self.package, productId: "coins100", token: bought.purchaseToken, developerPayload: nil)
        let restarted = try Self.emulator(directory, clock: clock)
        #expect(
            try restarted.productPurchase(packageName: Self.package, productId: "coins100", token: bought.purchaseToken)
                .acknowledgementState == AcknowledgementState.acknowledged)
    }

    /// Without a data directory the state has no file and lives in memory only.
    @Test func withoutADataDirectoryNothingIsSaved() throws {
        let play = try Self.emulator(nil, clock: ManualClock())
        #expect(play.stateFile.url == nil)
        let bought = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins100"))
        try play.acknowledge(
            packageName: Self.package, productId: "coins100", token: bought.purchaseToken, developerPayload: nil)
        let fresh = try Self.emulator(nil, clock: ManualClock())
        #expect(
            throws: GoogleErrors.purchaseTokenNotFound(),
            performing: {
                try fresh.productPurchase(packageName: Self.package, productId: "coins100", token: bought.purchaseToken)
            })
    }
}

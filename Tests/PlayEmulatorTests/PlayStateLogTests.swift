import EmulatorTestSupport
import Foundation
import LedgerTestSupport
import PlayModel
import Testing

@testable import PlayEmulator

/// The Play side's log (`play-state.log`): each change appends only what it changed, a
/// start folds the log into a new snapshot, and what a crash can leave behind (a torn last
/// line, lines already folded into the snapshot) is read back as nothing lost and nothing
/// doubled.
@Suite struct PlayStateLogTests {
    static let package = PlayPersistenceTests.package

    /// The log's lines, decoded.
    static func changes(in directory: URL) throws -> [PlayStateChange] {
        let data = try Data(contentsOf: directory.appendingPathComponent(PlayStateFile.logFileName))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try data.split(separator: 0x0A).map { try decoder.decode(PlayStateChange.self, from: $0) }
    }

    @Test("a change appends the purchase it changed, not every purchase the emulator holds")
    func aChangeAppendsWhatChanged() throws {
        let directory = try PlayFixture.keyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let play = try PlayPersistenceTests.emulator(directory, clock: ManualClock())
        let bought = try (0..<40).map { index in
            try play.purchase(deviceId: "d\(index)", PlayDevicePurchaseRequest(productId: "coins100"))
        }
        let before = try Self.changes(in: directory).count
        try play.acknowledge(
            packageName: Self.package, productId: "coins100", token: bought[7].purchaseToken, developerPayload: nil)
        let after = try Self.changes(in: directory)
        #expect(after.count == before + 1)
        let last = try #require(after.last)
        #expect(last.purchases.map(\.purchaseToken) == [bought[7].purchaseToken])
        #expect(last.purchases.first?.acknowledgementState == AcknowledgementState.acknowledged)
        // A read changes nothing and appends nothing.
        _ = try play.productPurchase(packageName: Self.package, productId: "coins100", token: bought[3].purchaseToken)
        #expect(try Self.changes(in: directory).count == after.count)
    }

    @Test("a start folds the log into the snapshot; lines a crash left from before the fold are not applied twice")
    func aStartFoldsTheLog() throws {
        let directory = try PlayFixture.keyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        let first = try PlayPersistenceTests.emulator(directory, clock: clock)
        let bought = try first.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins100", quantity: 3))
        clock.advance(by: 60)
        _ = try first.control(
            deviceId: "d", token: bought.purchaseToken, .refund, refund: PlayDeviceRefundRequest(quantity: 1))
        let voided = try first.voidedPurchases(packageName: Self.package, PlayPersistenceTests.allVoided)
        #expect(voided.voidedPurchases?.count == 1)
        let logURL = directory.appendingPathComponent(PlayStateFile.logFileName)
        let lines = try Data(contentsOf: logURL)
        #expect(!lines.isEmpty)

        let second = try PlayPersistenceTests.emulator(directory, clock: clock)
        #expect(try Data(contentsOf: logURL).isEmpty)
        #expect(try second.voidedPurchases(packageName: Self.package, PlayPersistenceTests.allVoided) == voided)

        // A crash after the new snapshot was renamed in and before the log was emptied
        // leaves the folded lines: they are of the old generation and skipped.
        try lines.write(to: logURL)
        let third = try PlayPersistenceTests.emulator(directory, clock: clock)
        #expect(try third.voidedPurchases(packageName: Self.package, PlayPersistenceTests.allVoided) == voided)
        #expect(
            try third.productPurchase(packageName: Self.package, productId: "coins100", token: bought.purchaseToken)
                .refundableQuantity == 2)
    }

    @Test("a torn last line is skipped; a line before it that does not decode stops the start and is kept")
    func tornAndCorruptLines() throws {
        let directory = try PlayFixture.keyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        let first = try PlayPersistenceTests.emulator(directory, clock: clock)
        let bought = try first.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins100"))
        let logURL = directory.appendingPathComponent(PlayStateFile.logFileName)
        let whole = try Data(contentsOf: logURL)

        try (whole + Data(#"{"generation":1,"purcha"#.utf8)).write(to: logURL)
        let second = try PlayPersistenceTests.emulator(directory, clock: clock)
        #expect(
            try second.productPurchase(packageName: Self.package, productId: "coins100", token: bought.purchaseToken)
                .purchaseState == PurchaseState.purchased)

        let later = try second.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "gems"))
        let corrupt = Data("not a change\n".utf8) + (try Data(contentsOf: logURL))
        try corrupt.write(to: logURL)
        let error = try #require(throws: PlayEmulatorError.self) {
            try PlayPersistenceTests.emulator(directory, clock: clock)
        }
        #expect(error.code == "corrupt_state")
        #expect(try Data(contentsOf: logURL) == corrupt)
        #expect(!later.purchaseToken.isEmpty)
    }

    @Test("a snapshot of format 1 (a snapshot per change, no log) is read")
    func formatOneIsRead() throws {
        let directory = try PlayFixture.keyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        let first = try PlayPersistenceTests.emulator(directory, clock: clock)
        let bought = try first.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins100"))
        _ = try PlayPersistenceTests.emulator(directory, clock: clock)
        let snapshotURL = directory.appendingPathComponent(PlayStateFile.fileName)
        var document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: snapshotURL)) as? [String: Any])
        #expect(document["version"] as? Int == 2)
        document["version"] = 1
        document["generation"] = nil
        try JSONSerialization.data(withJSONObject: document).write(to: snapshotURL)
        try FileManager.default.removeItem(at: directory.appendingPathComponent(PlayStateFile.logFileName))

        let reopened = try PlayPersistenceTests.emulator(directory, clock: clock)
        #expect(
            try reopened.productPurchase(packageName: Self.package, productId: "coins100", token: bought.purchaseToken)
                .purchaseState == PurchaseState.purchased)
    }
}

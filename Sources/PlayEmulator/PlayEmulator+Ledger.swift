import Foundation
import PlayModel

/// One one-time purchase as the Play side holds it: what a simulation or a test reads as the
/// truth of what Google charged, beside the App Store side's charge ledger.
public struct PlayLedgerEntry: Codable, Hashable, Sendable {
    /// Google's order id (`GPA.…`): the transaction id the server's ledger keeps.
    public var orderId: String
    /// Google's purchase token: what the device's refund, completion and cancellation name.
    public var purchaseToken: String
    /// The product bought.
    public var productId: String
    /// The emulated Android device that bought it.
    public var deviceId: String
    /// How many units.
    public var quantity: Int
    /// The `obfuscatedAccountId` the purchase was launched with (the order's token).
    public var obfuscatedAccountId: String?
    /// When the buyer paid (bought at once, or a pending purchase completed): the start of
    /// Google's three days to acknowledge it; `nil` while pending or once canceled unpaid.
    public var paidTime: Date?
    /// Whether it is still pending (not paid, not canceled).
    public var pending: Bool
    /// Whether every unit was refunded (by the user, the developer or Google's three-day rule).
    public var refunded: Bool
    /// Whether it was acknowledged or consumed.
    public var acknowledged: Bool

    /// Whether the buyer paid.
    public var paid: Bool { paidTime != nil }
}

extension PlayEmulator {
    /// Every one-time purchase made on the Play side, oldest first, after Google's three-day
    /// rule was applied up to ``now``.
    ///
    /// - Throws: ``PlayEmulatorError`` 503 `storage_unavailable` when a void the rule made
    ///   could not be saved.
    public func ledger() throws(PlayEmulatorError) -> [PlayLedgerEntry] {
        try update(storageFailure: PlayEmulatorError.storageUnavailable) {
            (state: inout PlayState) throws(PlayEmulatorError) in
            state.purchases.values.sorted { ($0.purchaseTime, $0.orderId) < ($1.purchaseTime, $1.orderId) }.map {
                PlayLedgerEntry(
                    orderId: $0.orderId, purchaseToken: $0.purchaseToken, productId: $0.productId,
                    deviceId: $0.deviceId, quantity: $0.quantity,
                    obfuscatedAccountId: $0.obfuscatedAccountId, paidTime: $0.paidTime,
                    pending: $0.purchaseState == PurchaseState.pending,
                    refunded: $0.paidTime != nil && $0.refundedQuantity >= $0.quantity,
                    acknowledged: $0.acknowledgementState == AcknowledgementState.acknowledged
                        || $0.consumptionState == ConsumptionState.consumed)
            }
        }
    }
}

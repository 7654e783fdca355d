import PurchaseSDK

/// Everything a device decides before one purchase, rolled up front so that a seed always
/// rolls the same plan whatever happens during the purchase.
struct DevicePlan: Sendable {
    var productId: String
    var quantity: Int
    var switchesPlayerFirst: Bool
    var restartsServer: Bool
    var serverDowntimeMilliseconds: Int
    /// Which server instance restarts, modulo the number of instances.
    var serverInstanceRoll: Int
    var forges: Bool
    var replays: Bool
    var killsAt: PipelineBoundary?
    var switchesPlayerAt: PipelineBoundary?
    var refundsBeforeDelivery: Bool
    var refundsAfterDelivery: Bool
    var reversesRefund: Bool
    var requestsConsumption: Bool
    var promoted: Bool
    var promotedWhileSignedOut: Bool
    var asksToBuy: Bool
    var parentDecidesNow: Bool
    var parentApproves: Bool
    var reinstalls: Bool
    var keepsKeychain: Bool

    /// Rolls the plan of the next purchase.
    init(dice: inout FaultDice, products: [String], sharedDevice: Bool) {
        productId = dice.pick(products)
        quantity = dice.chance(0.1) ? dice.integer(in: 2...3) : 1
        switchesPlayerFirst = sharedDevice && dice.strikes(.accountSwitch)
        restartsServer = dice.strikes(.serverRestart)
        serverDowntimeMilliseconds = dice.integer(in: 0...300)
        serverInstanceRoll = dice.integer(in: 0...1_023)
        forges = dice.strikes(.forgedReport)
        replays = dice.strikes(.replayedReport)
        killsAt = dice.strikes(.appKill) ? dice.pick(PipelineBoundary.allCases) : nil
        switchesPlayerAt = sharedDevice && dice.strikes(.accountSwitch) ? dice.pick(PipelineBoundary.allCases) : nil
        let refunds = dice.strikes(.refund)
        let early = dice.chance(0.5)
        refundsBeforeDelivery = refunds && early
        refundsAfterDelivery = refunds && !early
        reversesRefund = dice.strikes(.refundReversal)
        requestsConsumption = dice.strikes(.consumptionRequest)
        promoted = dice.strikes(.promotedPurchase)
        promotedWhileSignedOut = dice.chance(0.5)
        asksToBuy = dice.strikes(.askToBuy)
        parentDecidesNow = dice.chance(0.5)
        parentApproves = dice.chance(0.8)
        let keepsKeychain = dice.strikes(.reinstallKeepingKeychain)
        let losesKeychain = dice.strikes(.reinstallLosingKeychain)
        reinstalls = keepsKeychain || losesKeychain
        self.keepsKeychain = keepsKeychain
    }
}

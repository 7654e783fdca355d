import PurchaseSDK

/// Everything an Android phone decides before one purchase, rolled up front so that a seed
/// always rolls the same plan whatever happens during the purchase.
struct AndroidPlan: Sendable {
    var productId: String
    var quantity: Int
    var killsAt: PipelineBoundary?
    /// The buyer pays slowly: Google holds the purchase pending.
    var paysSlowly: Bool
    /// Earlier pending purchases are paid or canceled before this one.
    var settlesPendingNow: Bool
    /// Whether they are paid (else canceled).
    var pendingPaid: Bool
    var voidsBeforeDelivery: Bool
    var voidsAfterDelivery: Bool

    /// Rolls the plan of the next purchase.
    init(dice: inout FaultDice, products: [String]) {
        productId = dice.pick(products)
        quantity = dice.chance(0.1) ? dice.integer(in: 2...3) : 1
        killsAt = dice.strikes(.appKill) ? dice.pick(PipelineBoundary.allCases) : nil
        paysSlowly = dice.strikes(.playPending)
        settlesPendingNow = dice.chance(0.5)
        pendingPaid = dice.chance(0.8)
        let voids = dice.strikes(.playVoid)
        let early = dice.chance(0.5)
        voidsBeforeDelivery = voids && early
        voidsAfterDelivery = voids && !early
    }
}

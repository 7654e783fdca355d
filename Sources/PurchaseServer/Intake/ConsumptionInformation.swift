import AppStoreModel
import Ledger

/// What the server tells Apple about a purchase whose refund a customer asked for (Send
/// Consumption Information), decided from the ledger's facts and the configuration: plain
/// functions, no I/O.
enum ConsumptionInformation {
    /// Apple's `deliveryStatus` for what the ledger knows: `DELIVERED` when the ledger
    /// delivered the purchase (refunded since or not); `UNDELIVERED_OTHER` when the
    /// transaction belongs to a player's order but was never delivered (refused, or waiting
    /// for the player's report). The ledger cannot tell a quality issue, a wrong item or an
    /// outage from other reasons, so it never states those.
    static func deliveryStatus(delivered: Bool) -> DeliveryStatus {
        delivered ? .delivered : .undeliveredOther
    }

    /// The body of Send Consumption Information V2 for a player whose consent stands.
    ///
    /// - Parameters:
    ///   - consent: the player's consent, as the ledger records it.
    ///   - purchase: the delivered purchase, or `nil` when the ledger never delivered it.
    ///   - report: the game server's latest consumption report of the purchase.
    ///   - productType: the product's type, from the signed transaction.
    ///   - settings: the configured refund preference and sample statement.
    static func request(
        consent: ConsumptionConsent,
        purchase: Purchase?,
        report: ConsumptionReport?,
        productType: ProductType?,
        settings: ConsumptionSettings
    ) -> ConsumptionRequest {
        let isSubscription = productType == .autoRenewable
        // Apple computes an auto-renewable subscription's consumption itself and wants none.
        let consumptionPercentage = isSubscription ? nil : report?.consumptionPercentage
        return ConsumptionRequest(
            customerConsented: consent.isGiven,
            sampleContentProvided: settings.sampleContentProvided,
            deliveryStatus: deliveryStatus(delivered: purchase != nil),
            consumptionPercentage: consumptionPercentage,
            refundPreference: settings.statedPreference(
                delivered: purchase != nil, consumptionPercentage: consumptionPercentage,
                isSubscription: isSubscription)
        )
    }
}

import AppStoreModel
import Foundation
import Ledger

extension PurchaseDeliverer {
    /// What delivering `transaction` of `product` sets on its chain's entitlement, from
    /// Apple's signed data only: a non-consumable is permanent; a non-renewing subscription
    /// lasts ``CatalogProduct/periodDays`` (stacked by the ledger); an auto-renewable one
    /// stands as its renewal info says (``SubscriptionEvidence/standing(expiresDate:ownership:)``),
    /// active until `expiresDate` without one. `nil` for a product that unlocks nothing, an
    /// and an upgraded transaction (the higher-level one that replaced it sets the
    /// entitlement). The ledger leaves the entitlement alone when the grant is about a
    /// period bought before the one backing it now.
    ///
    /// Without `evidence` the grant is dated by the purchase: a signed transaction says
    /// nothing about the subscription after its purchase (its renewal intent, billing), so
    /// a copy signed later, as a device's is, must not outrank the notifications Apple
    /// signed meanwhile.
    func entitlementGrant(
        for transaction: VerifiedTransaction, product: CatalogProduct, evidence: SubscriptionEvidence?
    ) -> EntitlementGrant? {
        guard let entitlementId = product.entitlement, let kind = ProductKind(apple: product.type),
            !transaction.isUpgraded
        else { return nil }
        var grant = EntitlementGrant(
            entitlementId: entitlementId, productType: kind, state: .active,
            since: transaction.originalPurchaseDate ?? transaction.purchaseDate, until: nil,
            ownership: transaction.ownership,
            signedAt: evidence?.signedAt(for: transaction) ?? transaction.purchaseDate,
            reason: evidence?.reason)
        switch product.type {
        case .nonRenewing:
            grant.stackSeconds = Int64(product.periodDays ?? 0) * 86_400
        case .autoRenewable:
            let standing = (evidence ?? SubscriptionEvidence(reason: ""))
                .standing(expiresDate: transaction.expiresDate, ownership: transaction.ownership)
            grant.state = standing.state
            grant.until = standing.until
            grant.autoRenew = standing.autoRenew
            grant.autoRenewProductId = standing.autoRenewProductId
        default:
            break
        }
        return grant
    }
}

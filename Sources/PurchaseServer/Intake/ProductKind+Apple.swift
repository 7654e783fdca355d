import AppStoreModel
import Ledger

extension ProductKind {
    /// The ledger's word for Apple's product type; `nil` for a type Apple adds later (a
    /// catalog refuses such a product: ``CatalogProduct``).
    public init?(apple type: ProductType) {
        switch type {
        case .consumable: self = .consumable
        case .nonConsumable: self = .nonConsumable
        case .autoRenewable: self = .autoRenewable
        case .nonRenewing: self = .nonRenewing
        default: return nil
        }
    }
}

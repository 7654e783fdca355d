import AppStoreModel
import Ledger

extension Ownership {
    /// The ledger's word for Apple's `inAppOwnershipType`: family sharing when Apple says
    /// so, otherwise (absent, as in receipts, or a value Apple adds later) purchased.
    init(apple ownership: InAppOwnershipType?) {
        self = ownership == .familyShared ? .familyShared : .purchased
    }
}

import AppStoreModel
import Ledger

extension PurchaseEnvironment {
    /// The ledger's word for Apple's environment. An environment Apple adds later is recorded
    /// as ``sandbox``: never as real money.
    init(apple environment: AppStoreEnvironment) {
        switch environment {
        case .production: self = .production
        case .xcode: self = .xcode
        case .localTesting: self = .localTesting
        default: self = .sandbox
        }
    }
}

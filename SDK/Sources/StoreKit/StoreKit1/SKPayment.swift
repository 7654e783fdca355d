import Foundation

/// A request to the App Store to process payment for additional functionality.
///
/// Apple: `class SKPayment` (https://developer.apple.com/documentation/storekit/skpayment).
open class SKPayment: NSObject {
    fileprivate(set) var storedProductIdentifier: String
    fileprivate(set) var storedQuantity = 1
    fileprivate(set) var storedApplicationUsername: String?
    fileprivate(set) var storedSimulatesAskToBuy = false
    fileprivate(set) var storedRequestData: Data?

    /// Returns a new payment for the specified product.
    public convenience init(product: SKProduct) {
        self.init(identifier: product.productIdentifier)
    }

    init(identifier: String) {
        storedProductIdentifier = identifier
        super.init()
    }

    /// A string used to identify a product that can be purchased from within your app.
    open var productIdentifier: String { storedProductIdentifier }
    /// The number of items the user wants to purchase.
    open var quantity: Int { storedQuantity }
    /// An opaque identifier for the user's account on your system (sent to the App Store
    /// as the transaction's `appAccountToken` when it is a UUID, as Apple does).
    open var applicationUsername: String? { storedApplicationUsername }
    /// A Boolean value that produces an Ask to Buy flow for this payment in the sandbox.
    open var simulatesAskToBuyInSandbox: Bool { storedSimulatesAskToBuy }
    /// Reserved for future use.
    open var requestData: Data? { storedRequestData }

    /// An immutable copy, as the payment queue keeps it.
    func snapshot() -> SKPayment {
        let copy = SKPayment(identifier: productIdentifier)
        copy.storedQuantity = quantity
        copy.storedApplicationUsername = applicationUsername
        copy.storedSimulatesAskToBuy = simulatesAskToBuyInSandbox
        copy.storedRequestData = requestData
        return copy
    }
}

/// A mutable request to the App Store to process payment for additional functionality.
///
/// Apple: `class SKMutablePayment` (https://developer.apple.com/documentation/storekit/skmutablepayment).
open class SKMutablePayment: SKPayment {
    /// Creates a mutable payment for a product.
    public init(product: SKProduct) {
        super.init(identifier: product.productIdentifier)
    }

    /// Creates an empty mutable payment.
    public init() {
        super.init(identifier: "")
    }

    open override var productIdentifier: String {
        get { storedProductIdentifier }
        set { storedProductIdentifier = newValue }
    }
    open override var quantity: Int {
        get { storedQuantity }
        set { storedQuantity = newValue }
    }
    open override var applicationUsername: String? {
        get { storedApplicationUsername }
        set { storedApplicationUsername = newValue }
    }
    open override var simulatesAskToBuyInSandbox: Bool {
        get { storedSimulatesAskToBuy }
        set { storedSimulatesAskToBuy = newValue }
    }
    open override var requestData: Data? {
        get { storedRequestData }
        set { storedRequestData = newValue }
    }
}

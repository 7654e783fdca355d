import Foundation

/// An object that can retrieve localized information from the App Store about a specified
/// list of products.
///
/// Apple: `class SKProductsRequest` (https://developer.apple.com/documentation/storekit/skproductsrequest).
open class SKProductsRequest: SKRequest {
    private let identifiers: Set<String>

    /// Initializes the request with the set of product identifiers.
    public init(productIdentifiers: Set<String>) {
        identifiers = productIdentifiers
        super.init()
    }

    /// The delegate as the products request's delegate.
    var productsDelegate: (any SKProductsRequestDelegate)? {
        delegate as? any SKProductsRequestDelegate
    }

    override func perform() throws -> () -> Void {
        let catalog = try StoreKit1Call.client().products()
        let wanted = identifiers
        let reference = MainQueueReference(self)
        return {
            let found = catalog.filter { wanted.contains($0.productId) }
            let response = SKProductsResponse(
                products: found.map(SKProduct.init),
                invalidProductIdentifiers: wanted.subtracting(found.map(\.productId)).sorted())
            reference.object.productsDelegate?.productsRequest(reference.object, didReceive: response)
        }
    }
}

/// An App Store response to a request for information about a list of products.
///
/// Apple: `class SKProductsResponse` (https://developer.apple.com/documentation/storekit/skproductsresponse).
open class SKProductsResponse: NSObject {
    /// A list of products, one product for each valid product identifier provided in the original request.
    open private(set) var products: [SKProduct]
    /// An array of product identifier strings not recognized by the App Store.
    open private(set) var invalidProductIdentifiers: [String]

    init(products: [SKProduct], invalidProductIdentifiers: [String]) {
        self.products = products
        self.invalidProductIdentifiers = invalidProductIdentifiers
        super.init()
    }
}

/// A set of methods the delegate of an SKProductsRequest object implements to receive the
/// requested information.
///
/// Apple: `protocol SKProductsRequestDelegate : SKRequestDelegate`
/// (https://developer.apple.com/documentation/storekit/skproductsrequestdelegate).
public protocol SKProductsRequestDelegate: SKRequestDelegate {
    /// Accepts the App Store response that contains the requested product information.
    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse)
}

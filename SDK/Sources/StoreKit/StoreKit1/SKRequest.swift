import Foundation

/// An abstract class that represents a request to the App Store.
///
/// Apple: `class SKRequest` (https://developer.apple.com/documentation/storekit/skrequest).
/// Its delegate is called on the main queue.
open class SKRequest: NSObject {
    /// The request's delegate.
    open weak var delegate: (any SKRequestDelegate)?
    private var cancelled = false

    /// Sends the request to the App Store (inside a ``StoreKitDevice/run(_:)``, that device's).
    open func start() {
        cancelled = false
        let reference = MainQueueReference(self)
        let device = StoreKitConfiguration.scoped
        DispatchQueue.global().async {
            let outcome = Result {
                try StoreKitConfiguration.$scoped.withValue(device) { try reference.object.perform() }
            }
            DispatchQueue.main.async {
                let request = reference.object
                guard !request.cancelled else { return }
                switch outcome {
                case .success(let deliver):
                    deliver()
                    request.delegate?.requestDidFinish(request)
                case .failure(let error):
                    request.delegate?.request(request, didFailWithError: SKError.from(error))
                }
            }
        }
    }

    /// Cancels a previously started request.
    open func cancel() {
        cancelled = true
    }

    /// The request's work, off the main queue; answers what to tell the delegate on it.
    func perform() throws -> () -> Void {
        {}
    }
}

/// Common methods for SKRequest objects.
///
/// Apple: `protocol SKRequestDelegate : NSObjectProtocol`
/// (https://developer.apple.com/documentation/storekit/skrequestdelegate).
public protocol SKRequestDelegate: NSObjectProtocol {
    /// Tells the delegate that the request has completed.
    func requestDidFinish(_ request: SKRequest)
    /// Tells the delegate that the request failed to execute.
    func request(_ request: SKRequest, didFailWithError error: any Error)
}

extension SKRequestDelegate {
    public func requestDidFinish(_ request: SKRequest) {}
    public func request(_ request: SKRequest, didFailWithError error: any Error) {}
}

/// A request to refresh the receipt: written to `$STOREKEEPER_STOREKIT_DATA/receipt`
/// (Foundation on Linux answers nil for `Bundle.main.appStoreReceiptURL`).
///
/// Apple: `class SKReceiptRefreshRequest` (https://developer.apple.com/documentation/storekit/skreceiptrefreshrequest).
open class SKReceiptRefreshRequest: SKRequest {
    /// The properties of the receipt (the sandbox's test properties; not used by the emulator).
    open private(set) var receiptProperties: [String: Any]?

    /// Initializes a receipt refresh request with optional properties.
    public init(receiptProperties properties: [String: Any]?) {
        receiptProperties = properties
        super.init()
    }

    /// Initializes a receipt refresh request.
    public override convenience init() {
        self.init(receiptProperties: nil)
    }

    override func perform() throws -> () -> Void {
        try ReceiptFile.refresh(try StoreKit1Call.client())
        return {}
    }
}

/// A StoreKit 1 object handed to the main queue and back.
///
/// `@unchecked Sendable` is safe by StoreKit 1's threading rule, which this module keeps:
/// its objects (requests, transactions, observers) are mutated and called only on the main
/// queue; the work sent off the main queue only reads properties that never change after
/// the object was created, or none.
struct MainQueueReference<Object: AnyObject>: @unchecked Sendable {
    let object: Object
    init(_ object: Object) { self.object = object }
}

/// How StoreKit 1 reaches the emulator.
package enum StoreKit1Call {
    /// The client for the environment's configuration; `SKError.clientInvalid` otherwise.
    package static func client() throws -> EmulatorClient {
        do {
            return try EmulatorClient.current()
        } catch {
            throw SKError(
                .clientInvalid,
                userInfo: [NSLocalizedDescriptionKey: error.description, NSUnderlyingErrorKey: error.description])
        }
    }
}

extension SKError {
    /// StoreKit 1's error for a failure on the way to the emulator.
    package static func from(_ error: any Error) -> SKError {
        switch error {
        case let error as SKError: error
        case let error as EmulatorRequestError where error.code == "unknown_product":
            SKError(.storeProductNotAvailable, userInfo: [NSLocalizedDescriptionKey: error.description])
        case let error as EmulatorRequestError where error.code == "invalid_quantity":
            SKError(.paymentInvalid, userInfo: [NSLocalizedDescriptionKey: error.description])
        case StoreKitError.networkError(let error):
            SKError(.unknown, userInfo: [NSLocalizedDescriptionKey: "network: \(error.localizedDescription)"])
        default: SKError(.unknown, userInfo: [NSLocalizedDescriptionKey: "\(error)"])
        }
    }
}

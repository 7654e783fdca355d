import Foundation
import PlayModel

extension PlayEmulator {
    /// Whether `authorization` (the `Authorization` header) carries an access token the
    /// token endpoint issued that has not expired.
    ///
    /// - Throws: ``GoogleErrorResponse`` 401: `required` without a bearer token,
    ///   `authError` for one the emulator does not know or that expired.
    /// Access tokens live on the wall clock, not on ``now``: a test that moves the
    /// purchases' clock days ahead keeps its token.
    func authorize(_ authorization: String?, now: Date = Date()) throws(GoogleErrorResponse) {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else {
            throw GoogleErrors.loginRequired
        }
        let token = authorization.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        let valid = state.withLock { state in
            state.accessTokens = state.accessTokens.filter { $0.value > now }
            return state.accessTokens[token] != nil
        }
        guard valid else { throw GoogleErrors.invalidCredentials }
    }

    /// `purchases.products.get`: the purchase `token` of `productId` in `packageName`.
    ///
    /// - Throws: ``GoogleErrorResponse``: 404 `applicationNotFound`, 404 `notFound` for an
    ///   unknown token, 400 `purchaseTokenDoesNotMatchProductId`.
    public func productPurchase(
        packageName: String, productId: String, token: String
    ) throws(GoogleErrorResponse) -> ProductPurchase {
        try update(storageFailure: GoogleErrors.storageUnavailable) {
            state throws(GoogleErrorResponse) -> ProductPurchase in
            return try Self.purchase(in: state, packageName: packageName, productId: productId, token: token, of: self)
                .productPurchase
        }
    }

    /// `purchases.products.acknowledge`: marks a purchased (paid) purchase acknowledged,
    /// keeping `developerPayload`. Acknowledging an acknowledged purchase again changes
    /// nothing and succeeds, so a retried acknowledgement is safe.
    ///
    /// - Throws: ``GoogleErrorResponse``: the errors of ``productPurchase(packageName:productId:token:)``,
    ///   and 400 `invalidPurchaseState` for a pending, canceled or consumed purchase.
    public func acknowledge(
        packageName: String, productId: String, token: String, developerPayload: String?
    ) throws(GoogleErrorResponse) {
        try update(storageFailure: GoogleErrors.storageUnavailable) { state throws(GoogleErrorResponse) in
            var purchase = try Self.purchase(
                in: state, packageName: packageName, productId: productId, token: token, of: self)
            do {
                try purchase.acknowledge(developerPayload: developerPayload)
            } catch {
                throw GoogleErrors.invalidPurchaseState()
            }
            state.purchases[token] = purchase
        }
    }

    /// `purchases.products.consume`: consumes a purchased (paid) purchase, which also
    /// acknowledges it; the device can buy the product again afterwards.
    ///
    /// - Throws: ``GoogleErrorResponse``: the errors of ``productPurchase(packageName:productId:token:)``,
    ///   and 400 `invalidPurchaseState` for a pending, canceled or already consumed purchase.
    public func consume(packageName: String, productId: String, token: String) throws(GoogleErrorResponse) {
        try update(storageFailure: GoogleErrors.storageUnavailable) { state throws(GoogleErrorResponse) in
            var purchase = try Self.purchase(
                in: state, packageName: packageName, productId: productId, token: token, of: self)
            do {
                try purchase.consume()
            } catch {
                throw GoogleErrors.invalidPurchaseState()
            }
            state.purchases[token] = purchase
        }
    }

    /// The purchase the three methods address, checked in Google's order: the app, the
    /// token, the product.
    private static func purchase(
        in state: PlayState, packageName: String, productId: String, token: String, of emulator: PlayEmulator
    ) throws(GoogleErrorResponse) -> PlayPurchase {
        guard packageName == emulator.packageName else { throw GoogleErrors.applicationNotFound() }
        guard let purchase = state.purchases[token] else { throw GoogleErrors.purchaseTokenNotFound() }
        guard purchase.productId == productId else { throw GoogleErrors.tokenDoesNotMatchProduct() }
        return purchase
    }
}

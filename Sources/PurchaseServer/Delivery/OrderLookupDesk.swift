import AppStoreAPI
import AppStoreModel
import AppStoreVerification
import Ledger

/// Support's tool for "I paid and got nothing": Apple's Look Up Order ID with the order id
/// from the customer's email receipt, then delivery of every transaction it lists through
/// the shared path (bound transactions go to their order's player; unbound ones to the
/// player support names, through an order made for it), and then Apple's transaction is
/// made to carry the token of the order the purchase is bound to (``AppAccountTokenBinder``).
///
/// The admin API's `lookup-order` and the support console (read-only lookup, delivery of
/// an owed transaction) share its steps.
struct OrderLookupDesk: Sendable {
    let client: AppStoreServerAPIClient
    let jwsVerifier: JWSVerifier
    let deliverer: PurchaseDeliverer
    let binder: AppAccountTokenBinder
    let store: any LedgerStore

    func lookUp(_ request: OrderLookupRequest) async throws -> OrderLookupAnswer {
        try Self.checkAppleOrderId(request.appleOrderId)
        try RequestField.identifier(request.playerId, .playerId)
        let response = try await appleOrder(request.appleOrderId)
        var answers: [PurchaseAnswer] = []
        for signed in response.signedTransactions ?? [] {
            answers.append(try await deliver(signed, playerId: request.playerId))
        }
        return OrderLookupAnswer(
            appleOrderId: request.appleOrderId, status: response.status?.rawValue ?? 1, transactions: answers)
    }

    /// Refuses an order id that is not 1 to 64 ASCII letters and digits (as on the e-mail
    /// receipt, e.g. `MK1A2B3C4D`) with `invalid_request`.
    static func checkAppleOrderId(_ orderId: String) throws(ServerError) {
        guard isAppleOrderId(orderId) else {
            throw .invalidRequest("appleOrderId must be 1 to 64 letters and digits (as on the e-mail receipt)")
        }
    }

    /// Whether `text` has the shape of an order id of an App Store e-mail receipt: 1 to 64
    /// ASCII letters and digits.
    static func isAppleOrderId(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy {
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
            }
    }

    /// Apple's Look Up Order ID answer; `apple_unavailable` when Apple could not be asked.
    func appleOrder(_ orderId: String) async throws(ServerError) -> OrderLookupResponse {
        do {
            return try await client.lookUpOrderId(orderId)
        } catch {
            throw .appleUnavailable("Look Up Order ID failed: \(error.kind.rawValue)")
        }
    }

    /// Delivers one signed transaction; refusals are answers, database failures are thrown.
    private func deliver(_ signedTransaction: String, playerId: String?) async throws -> PurchaseAnswer {
        let payload: JWSTransactionDecodedPayload
        do {
            payload = try await jwsVerifier.verifyTransaction(signedTransaction)
        } catch {
            return PurchaseAnswer(.verificationFailed(error))
        }
        return try await deliver(payload, playerId: playerId)
    }

    /// Delivers one verified transaction through the shared path for support (unbound, it
    /// goes to `playerId` through an order made for it), then sets the binding's token at
    /// Apple; refusals are answers, database failures are thrown.
    func deliver(_ payload: JWSTransactionDecodedPayload, playerId: String?) async throws -> PurchaseAnswer {
        guard let transaction = VerifiedTransaction(payload) else {
            return PurchaseAnswer(.rejected("malformed_payload", "a transaction without id or product"))
        }
        do {
            let result = try await deliverer.deliver(
                transaction, source: .adminLookup, claimant: .support(playerId: playerId))
            var answer = PurchaseAnswer(result, balances: try await store.wallet(playerId: result.purchase.playerId))
            answer.appAccountTokenAtApple = try await binder.bindAtApple(
                result.purchase, appleToken: transaction.appAccountToken)
            return answer
        } catch let refusal as DeliveryRefusal {
            return PurchaseAnswer(refusal)
        }
    }
}

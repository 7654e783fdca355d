import AppStoreAPI
import AppStoreModel
import AppStoreVerification
import Ledger

/// Support's tool for "I paid and got nothing": Apple's Look Up Order ID with the order id
/// from the customer's email receipt, then delivery of every transaction it lists through
/// the shared path (bound transactions go to their order's player; unbound ones to the
/// player support names, through an order made for it), and then Apple's transaction is
/// made to carry the token of the order the purchase is bound to (``AppAccountTokenBinder``).
struct OrderLookupDesk: Sendable {
    let client: AppStoreServerAPIClient
    let jwsVerifier: JWSVerifier
    let deliverer: PurchaseDeliverer
    let binder: AppAccountTokenBinder
    let store: any LedgerStore

    func lookUp(_ request: OrderLookupRequest) async throws -> OrderLookupAnswer {
        let orderId = request.appleOrderId
        guard (1...64).contains(orderId.utf8.count),
            orderId.utf8.allSatisfy({
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
            })
        else {
            throw ServerError.invalidRequest(
                "appleOrderId must be 1 to 64 letters and digits (as on the e-mail receipt)")
        }
        try RequestField.check(request.playerId, "playerId", length: 1...RequestField.maximumPlayerIdLength)
        let response: OrderLookupResponse
        do {
            response = try await client.lookUpOrderId(request.appleOrderId)
        } catch {
            throw ServerError.appleUnavailable("Look Up Order ID failed: \(error.kind.rawValue)")
        }
        var answers: [PurchaseAnswer] = []
        for signed in response.signedTransactions ?? [] {
            answers.append(try await deliver(signed, playerId: request.playerId))
        }
        return OrderLookupAnswer(
            appleOrderId: request.appleOrderId, status: response.status?.rawValue ?? 1, transactions: answers)
    }

    /// Delivers one transaction; refusals are answers, database failures are thrown.
    private func deliver(_ signedTransaction: String, playerId: String?) async throws -> PurchaseAnswer {
        do {
            let payload = try await jwsVerifier.verifyTransaction(signedTransaction)
            guard let transaction = VerifiedTransaction(payload) else {
                return PurchaseAnswer(.rejected("malformed_payload", "a transaction without id or product"))
            }
            let result = try await deliverer.deliver(
                transaction, source: .adminLookup, claimant: .support(playerId: playerId))
            var answer = PurchaseAnswer(result, balances: try await store.wallet(playerId: result.purchase.playerId))
            answer.appAccountTokenAtApple = try await binder.bindAtApple(
                result.purchase, appleToken: transaction.appAccountToken)
            return answer
        } catch let error as VerificationError {
            return PurchaseAnswer(.verificationFailed(error))
        } catch let refusal as DeliveryRefusal {
            return PurchaseAnswer(refusal)
        }
    }
}

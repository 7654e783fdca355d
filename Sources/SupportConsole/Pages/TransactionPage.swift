import AppStoreModel
import Foundation
import Hummingbird
import Ledger
import PurchaseServer

extension SupportPages {
    /// `GET /console/transactions/{transactionId}`: for an App Store transaction, what Apple
    /// signs for it now (Get Transaction Info, verified and decoded, or why it cannot be
    /// shown); of any store (a Google Play order id `GPA.…` too), the ledger's
    /// purchase (who got it, how, flags, status, refunded share) and its whole history.
    /// Not delivered and known to Apple: the deliver form, for agents and admins.
    func transactionPage(_ request: Request, _ context: some RequestContext, _ caller: ConsoleCaller) async throws
        -> ConsolePage
    {
        let transactionId = try context.consoleParameter("transactionId")
        let purchase = try await store.purchase(inAnyStore: transactionId)
        let events = try await store.events(transactionId: transactionId)
        // Apple is asked only about its own transactions: a Google Play one is the ledger's.
        let isApple = (purchase?.store ?? events.first?.store ?? .appStore) == .appStore
        let apple = isApple ? try await appleSigned(transactionId) : (state: "unknown", payload: nil)
        guard purchase != nil || !events.isEmpty || apple.payload != nil else {
            throw ConsoleError.notFound(transactionId)
        }
        try await caller.audit(action: "view_transaction", target: transactionId)
        var values: [String: any Sendable] = [
            "transactionId": transactionId, "deliverHref": ConsoleLinks.deliver(transactionId), "isApple": isApple,
            "history": events.reversed().map { self.values(of: $0, caller) }, "hasHistory": !events.isEmpty,
            "appleState": apple.state, "appleKnown": apple.payload != nil,
            "appleStateText": text("apple_state_\(apple.state)", caller),
        ]
        if let payload = apple.payload { values["appleSigned"] = appleSignedRows(payload, caller) }
        if let purchase {
            values["purchase"] = self.values(of: purchase, caller)
        } else if apple.payload != nil {
            values["deliverable"] = true
        }
        var page = ConsolePage(template: "transaction", titleKey: "title_transaction", values: values)
        page.titleDetail = transactionId
        return page
    }

    /// What Apple signs for a transaction now, or why the page cannot show it: state
    /// `signed`, `unknown` (Apple does not know it), `not_configured`, `apple_unavailable`,
    /// `verification_failed`, `apple_disagrees`, `invalid`.
    func appleSigned(_ transactionId: String) async throws -> (state: String, payload: JWSTransactionDecodedPayload?) {
        do {
            guard let payload = try await server.appleTransaction(transactionId) else { return ("unknown", nil) }
            return ("signed", payload)
        } catch let error as ServerError {
            return (["invalid_request", "invalid_identifier"].contains(error.code) ? "invalid" : error.code, nil)
        }
    }
}

import AppStoreModel
import Foundation
import Hummingbird
import Ledger
import PurchaseServer

extension SupportPages {
    /// `GET /console/apple-orders/{appleOrderId}`: Apple's Look Up Order ID for the order id
    /// on the customer's e-mail receipt, read-only: each transaction Apple charged, with
    /// product, dates and environment, and whether (and to whom) the ledger delivered it;
    /// an undelivered one gets the deliver form (agents and admins).
    func appleOrderPage(_ request: Request, _ context: some RequestContext, _ caller: ConsoleCaller) async throws
        -> ConsolePage
    {
        let appleOrderId = try context.consoleParameter("appleOrderId", maximumBytes: 64)
        let lookup: AppleOrderLookup
        do {
            lookup = try await server.lookUpAppleOrder(appleOrderId)
        } catch let error as ServerError {
            throw ConsoleError(error, subject: appleOrderId)
        }
        try await caller.audit(
            action: "view_apple_order", target: appleOrderId,
            detail: ["status": String(lookup.status.rawValue), "transactions": String(lookup.transactions.count)])
        var page = ConsolePage(
            template: "apple-order", titleKey: "title_apple_order",
            values: [
                "appleOrderId": appleOrderId, "valid": lookup.status == .valid,
                "transactions": lookup.transactions.map { values(of: $0, caller) },
                "hasTransactions": !lookup.transactions.isEmpty,
            ])
        page.titleDetail = appleOrderId
        return page
    }

    /// One transaction of an Apple order.
    private func values(of transaction: AppleOrderLookup.Transaction, _ caller: ConsoleCaller)
        -> [String: any Sendable]
    {
        guard let payload = transaction.payload, let transactionId = payload.transactionId else {
            return ["unverified": true, "failure": transaction.verificationFailure ?? "malformed_payload"]
        }
        var values: [String: any Sendable] = [
            "transactionId": transactionId, "transactionHref": ConsoleLinks.transaction(transactionId),
            "deliverHref": ConsoleLinks.deliver(transactionId), "productId": payload.productId ?? "",
            "quantity": String(payload.quantity ?? 1),
            "environment": payload.environment.map { label("environment_", $0.rawValue, caller) } ?? "",
            "purchaseDate": payload.purchaseDateValue.map { ConsoleFormat.date($0) } ?? "",
            "delivered": transaction.purchase != nil, "revoked": payload.isRevoked,
        ]
        if let token = payload.appAccountToken { values["appAccountToken"] = token }
        if let price = payload.price, let currency = payload.currency {
            values["price"] = ConsoleMoney(milliunits: price, currency: currency).formatted
        }
        if let purchase = transaction.purchase {
            values["purchase"] = self.values(of: purchase, caller)
        }
        return values
    }
}

extension ConsoleError {
    /// The console's error for a server's refusal: its code where the console names it
    /// (`not_configured`, `apple_unavailable`, `not_found`, …), with the server's message.
    init(_ error: ServerError, subject: String) {
        switch error.code {
        case "invalid_request":
            self.init(code: "invalid_request", status: .badRequest, detail: error.message)
        case "not_found":
            self.init(code: "not_found", status: .notFound, detail: subject)
        default:
            self.init(code: error.code, status: error.status, detail: error.message)
        }
    }
}

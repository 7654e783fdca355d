import AppStoreModel
import Foundation
import Hummingbird

extension AppStoreEmulator {
    /// Apple-side actions and inspection, under `/emulator/v1`.
    nonisolated func addControlRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        let transactions = group.group("transactions/:transactionId")
        transactions.post("refund") { request, context in
            await self.respond {
                let refund = try RefundRequest.read(try await JSONResponse.body(of: request, limit: 1 << 20))
                let transaction = try await self.refund(
                    transactionId: try context.parameters.require("transactionId"), percentage: refund.percentage,
                    reason: refund.revocationReason ?? .refundedForOtherReason)
                return JSONResponse.make(RevocationAnswer(transaction))
            }
        }
        transactions.post("family-revoke") { _, context in
            await self.respond {
                JSONResponse.make(
                    RevocationAnswer(
                        try await self.familyRevoke(transactionId: try context.parameters.require("transactionId"))))
            }
        }
        transactions.post("decline-refund") { _, context in
            await self.respond {
                JSONResponse.make(
                    RevocationAnswer(
                        try await self.declineRefund(transactionId: try context.parameters.require("transactionId"))))
            }
        }
        transactions.post("reverse-refund") { _, context in
            await self.respond {
                JSONResponse.make(
                    RevocationAnswer(
                        try await self.reverseRefund(transactionId: try context.parameters.require("transactionId"))))
            }
        }
        transactions.post("consumption-request") { _, context in
            await self.respond {
                try await self.requestConsumption(transactionId: try context.parameters.require("transactionId"))
                return JSONResponse.make(["requested": true])
            }
        }
        transactions.get("consumption") { _, context in
            await self.respond {
                guard
                    let consumption = try await self.consumptionInformation(
                        try context.parameters.require("transactionId"))
                else {
                    throw EmulatorError(
                        "no_consumption_information", "no consumption information was sent", status: 404)
                }
                return JSONResponse.make(consumption)
            }
        }
        group.get("products") { _, _ in JSONResponse.make(self.products) }
        group.put("products") { request, _ in
            await self.respond {
                let products = try await JSONResponse.decode([EmulatorProduct].self, from: request)
                return JSONResponse.make(try self.addProducts(products).products)
            }
        }
        group.get("roots") { _, _ in
            JSONResponse.make([
                "jws": Data(self.identity.jwsChain.rootCertificateDER).base64EncodedString(),
                "receipt": Data(self.identity.receiptChain.rootCertificateDER).base64EncodedString(),
            ])
        }
        group.get("server-api-key") { _, _ in
            let key = self.identity.apiKey
            return JSONResponse.make([
                "issuerId": key.issuerId, "keyId": key.keyId, "bundleId": key.bundleId, "privateKey": key.privateKeyPEM,
            ])
        }
        group.get("ledger") { _, _ in
            let ledger = await self.ledger()
            return await self.respond { JSONResponse.make(ledger) }
        }
        group.get("notifications") { _, _ in
            let notifications = await self.notifications()
            return await self.respond { JSONResponse.make(notifications) }
        }
        group.get("faults") { _, _ in JSONResponse.make(await self.faults) }
        group.put("faults") { request, _ in
            await self.respond {
                let body = try await JSONResponse.body(of: request, limit: 1 << 20)
                try FaultsValidation.check(body)
                let faults = try JSONResponse.decode(EmulatorFaults.self, from: body)
                await self.setFaults(faults)
                return JSONResponse.make(faults)
            }
        }
    }
}

import AppStoreModel
import Foundation
import Hummingbird

extension AppStoreEmulator {
    /// What a phone's StoreKit does, under `/emulator/v1/devices/{deviceId}`.
    nonisolated func addDeviceRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        let devices = group.group("devices/:deviceId")
        devices.get { _, context in
            await self.respond { JSONResponse.make(await self.device(try context.parameters.require("deviceId"))) }
        }
        devices.put { request, context in
            await self.respond {
                let settings = try await JSONResponse.decode(DeviceSettings.self, from: request)
                return JSONResponse.make(
                    try await self.updateDevice(try context.parameters.require("deviceId"), settings: settings))
            }
        }
        devices.post("purchases") { request, context in
            await self.respond {
                let purchase = try await JSONResponse.decode(PurchaseRequest.self, from: request)
                let result = try await self.purchase(deviceId: try context.parameters.require("deviceId"), purchase)
                return JSONResponse.make(result, status: result.outcome == "pending" ? .accepted : .ok)
            }
        }
        devices.get("purchases/pending") { _, context in
            await self.respond {
                JSONResponse.make(await self.pendingPurchases(deviceId: try context.parameters.require("deviceId")))
            }
        }
        devices.post("purchases/:pendingId/approve") { _, context in
            await self.respond {
                JSONResponse.make(try await self.approvePendingPurchase(try context.parameters.require("pendingId")))
            }
        }
        devices.post("purchases/:pendingId/decline") { _, context in
            await self.respond {
                try await self.declinePendingPurchase(try context.parameters.require("pendingId"))
                return JSONResponse.make(["outcome": "declined"])
            }
        }
        devices.get("transactions/unfinished") { _, context in
            await self.respond {
                JSONResponse.make(
                    try await self.unfinishedTransactions(deviceId: try context.parameters.require("deviceId")))
            }
        }
        devices.post("transactions/:transactionId/finish") { _, context in
            await self.respond {
                try await self.finishTransaction(
                    deviceId: try context.parameters.require("deviceId"),
                    transactionId: try context.parameters.require("transactionId")
                )
                return JSONResponse.make(["finished": true])
            }
        }
        devices.get("receipt") { _, context in
            await self.respond {
                JSONResponse.make([
                    "appReceipt": try await self.receipt(deviceId: try context.parameters.require("deviceId"))
                ])
            }
        }
    }

    /// Apple-side actions and inspection, under `/emulator/v1`.
    nonisolated func addControlRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        let transactions = group.group("transactions/:transactionId")
        transactions.post("refund") { _, context in
            await self.respond {
                try await self.refund(transactionId: try context.parameters.require("transactionId"))
                return JSONResponse.make(["refundState": "refunded"])
            }
        }
        transactions.post("decline-refund") { _, context in
            await self.respond {
                try await self.declineRefund(transactionId: try context.parameters.require("transactionId"))
                return JSONResponse.make(["refundState": "declined"])
            }
        }
        transactions.post("reverse-refund") { _, context in
            await self.respond {
                try await self.reverseRefund(transactionId: try context.parameters.require("transactionId"))
                return JSONResponse.make(["refundState": "reversed"])
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
        group.get("ledger") { _, _ in JSONResponse.make(await self.ledger()) }
        group.get("notifications") { _, _ in JSONResponse.make(await self.notifications()) }
        group.get("faults") { _, _ in JSONResponse.make(await self.faults) }
        group.put("faults") { request, _ in
            await self.respond {
                let faults = try await JSONResponse.decode(EmulatorFaults.self, from: request)
                await self.setFaults(faults)
                return JSONResponse.make(faults)
            }
        }
    }
}

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
                let result = try await self.purchase(
                    deviceId: try context.parameters.require("deviceId"), purchase,
                    includesReceipt: purchase.includeAppReceipt ?? true)
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
                JSONResponse.make(try await self.approvePendingPurchase(try await self.pendingPurchaseId(in: context)))
            }
        }
        devices.post("purchases/:pendingId/decline") { _, context in
            await self.respond {
                try await self.declinePendingPurchase(try await self.pendingPurchaseId(in: context))
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
        devices.get("transactions") { _, context in
            await self.respond {
                JSONResponse.make(try await self.allTransactions(deviceId: try context.parameters.require("deviceId")))
            }
        }
        devices.get("app-transaction") { _, context in
            await self.respond {
                guard
                    let signed = try await self.signedAppTransaction(
                        deviceId: try context.parameters.require("deviceId"))
                else {
                    throw EmulatorError(
                        "no_app_transaction", "the device's account has made no purchase yet", status: 404)
                }
                return JSONResponse.make(["signedAppTransaction": signed])
            }
        }
        devices.get("subscription-statuses") { _, context in
            await self.respond {
                JSONResponse.make(
                    try await self.subscriptionStatuses(deviceId: try context.parameters.require("deviceId")))
            }
        }
        devices.post("promotions") { request, context in
            await self.respond {
                let body = try await JSONResponse.decode(PromotionRequest.self, from: request)
                return JSONResponse.make(
                    try await self.promote(
                        deviceId: try context.parameters.require("deviceId"), productId: body.productId),
                    status: .created)
            }
        }
        devices.get("promotions") { _, context in
            await self.respond {
                JSONResponse.make(await self.promotions(deviceId: try context.parameters.require("deviceId")))
            }
        }
        devices.delete("promotions/:promotionId") { _, context in
            await self.respond {
                try await self.takePromotion(
                    deviceId: try context.parameters.require("deviceId"),
                    promotionId: try context.parameters.require("promotionId"))
                return JSONResponse.make(["taken": true])
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

    /// The `pendingId` path parameter, when it names a purchase waiting on the path's
    /// device; 404 `unknown_pending_purchase` otherwise (another device's too).
    private nonisolated func pendingPurchaseId(in context: some RequestContext) async throws -> String {
        let deviceId = try context.parameters.require("deviceId")
        let pendingId = try context.parameters.require("pendingId")
        guard await pendingPurchases(deviceId: deviceId).contains(where: { $0.pendingId == pendingId }) else {
            throw EmulatorError(
                "unknown_pending_purchase", "no pending purchase \(pendingId) on device \(deviceId)", status: 404)
        }
        return pendingId
    }
}

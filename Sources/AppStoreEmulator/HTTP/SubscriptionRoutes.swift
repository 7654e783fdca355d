import AppStoreModel
import Foundation
import Hummingbird

extension AppStoreEmulator {
    /// Apple-side subscription actions under `/emulator/v1/subscriptions`, and the
    /// subscriber's under `/emulator/v1/devices/{deviceId}`.
    nonisolated func addSubscriptionRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.post("process-due-subscriptions") { request, _ in
            await self.respond {
                let body = try await JSONResponse.body(of: request, limit: 1 << 16)
                let now = try body.isEmpty ? nil : JSONResponse.decode(ProcessDueRequest.self, from: body).now
                let actions = try await self.processDueSubscriptions(
                    now: now.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? Date(),
                    limit: Self.processDueLimit)
                return JSONResponse.make(["actions": actions])
            }
        }
        let subscriptions = group.group("subscriptions/:originalTransactionId")
        subscriptions.get { _, context in
            await self.respond { JSONResponse.make(try await self.answer(try Self.chainId(context))) }
        }
        subscriptions.post("renew") { _, context in
            await self.respond {
                let id = try Self.chainId(context)
                let renewal = try await self.renewSubscription(originalTransactionId: id)
                return JSONResponse.make(try await self.answer(id, transaction: renewal))
            }
        }
        subscriptions.post("fail-renewal") { request, context in
            await self.respond {
                let id = try Self.chainId(context)
                let body = try await JSONResponse.decode(FailRenewalRequest.self, from: request)
                try await self.failRenewal(originalTransactionId: id, gracePeriod: body.gracePeriod)
                return JSONResponse.make(try await self.answer(id))
            }
        }
        subscriptions.post("expire-grace") { _, context in
            await self.respond {
                let id = try Self.chainId(context)
                try await self.expireGracePeriod(originalTransactionId: id)
                return JSONResponse.make(try await self.answer(id))
            }
        }
        subscriptions.post("recover") { _, context in
            await self.respond {
                let id = try Self.chainId(context)
                let renewal = try await self.recoverSubscription(originalTransactionId: id)
                return JSONResponse.make(try await self.answer(id, transaction: renewal))
            }
        }
        subscriptions.post("expire") { _, context in
            await self.respond {
                let id = try Self.chainId(context)
                try await self.expireSubscription(originalTransactionId: id)
                return JSONResponse.make(try await self.answer(id))
            }
        }
        subscriptions.post("family-share") { request, context in
            await self.respond {
                let body = try await JSONResponse.decode(FamilyShareRequest.self, from: request)
                let shared = try await self.familyShare(
                    originalTransactionId: try Self.chainId(context), memberDeviceId: body.deviceId)
                return JSONResponse.make(try await self.deviceTransaction(shared))
            }
        }
        let devices = group.group("devices/:deviceId")
        devices.post("restore") { _, context in
            await self.respond {
                JSONResponse.make(try await self.restore(deviceId: try context.parameters.require("deviceId")))
            }
        }
        devices.post("subscriptions/:originalTransactionId/auto-renew") { request, context in
            await self.respond {
                let id = try Self.chainId(context)
                let body = try await JSONResponse.decode(AutoRenewRequest.self, from: request)
                try await self.setAutoRenew(
                    deviceId: try context.parameters.require("deviceId"), originalTransactionId: id,
                    enabled: body.enabled)
                return JSONResponse.make(try await self.answer(id))
            }
        }
        devices.post("subscriptions/:originalTransactionId/change") { request, context in
            await self.respond {
                let id = try Self.chainId(context)
                let body = try await JSONResponse.decode(ChangeSubscriptionRequest.self, from: request)
                let backing = try await self.changeSubscription(
                    deviceId: try context.parameters.require("deviceId"), originalTransactionId: id,
                    productId: body.productId)
                return JSONResponse.make(try await self.answer(id, transaction: backing))
            }
        }
    }

    /// The most actions one `process-due-subscriptions` request takes, so a far `now` answers promptly.
    static let processDueLimit = 1_000

    private nonisolated static func chainId(_ context: some RequestContext) throws -> String {
        try context.parameters.require("originalTransactionId")
    }

    /// The chain's answer now, with `transaction` when an action made one.
    func answer(_ originalTransactionId: String, transaction: EmulatedTransaction? = nil) throws
        -> SubscriptionAnswer
    {
        SubscriptionAnswer(
            subscription: try subscription(originalTransactionId),
            status: try subscriptionStatus(originalTransactionId),
            transaction: try transaction.map(deviceTransaction))
    }
}

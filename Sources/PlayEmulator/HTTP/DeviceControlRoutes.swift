import Foundation
import Hummingbird
import PlayModel

extension PlayEmulator {
    /// `GET devices/{deviceId}/purchases` (`queryPurchasesAsync`) and
    /// `POST devices/{deviceId}/purchases/{purchaseToken}:{action}` (``PlayDeviceAction``).
    func addDeviceControlRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.get("devices/:deviceId/purchases") { _, context -> Response in
            await Self.answer {
                PlayJSON.make(try self.devicePurchases(deviceId: try context.parameters.require("deviceId")))
            }
        }
        group.post("devices/:deviceId/purchases/:purchaseToken") { request, context -> Response in
            await Self.answer {
                let deviceId = try context.parameters.require("deviceId")
                let segment = try context.parameters.require("purchaseToken")
                guard let parsed = PlayDeviceAction.parse(segment.removingPercentEncoding ?? segment) else {
                    throw PlayEmulatorError(
                        "unknown_action",
                        "the last segment must be {purchaseToken}:"
                            + PlayDeviceAction.allCases.map(\.rawValue).joined(separator: "|"),
                        status: 404)
                }
                let (token, action) = parsed
                var refund: PlayDeviceRefundRequest?
                if action == .refund, let body = await PlayJSON.body(of: request),
                    !body.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) })
                {
                    guard let decoded = try? JSONDecoder().decode(PlayDeviceRefundRequest.self, from: body) else {
                        throw PlayEmulatorError(
                            "malformed_body", "the body is not a JSON refund: {\"quantity\"?, \"reason\"?, \"source\"?}"
                        )
                    }
                    refund = decoded
                }
                return PlayJSON.make(try self.control(deviceId: deviceId, token: token, action, refund: refund))
            }
        }
    }

    /// `body`'s answer, or the emulator's error shape for what it throws.
    static func answer(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let error as PlayEmulatorError {
            return PlayJSON.emulator(error)
        } catch {
            return PlayJSON.emulator(PlayEmulatorError("internal_error", "\(error)", status: 500))
        }
    }
}

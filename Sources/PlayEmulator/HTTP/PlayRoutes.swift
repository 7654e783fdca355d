import Foundation
import Hummingbird
import PlayModel

extension PlayEmulator {
    /// Adds the Play side's endpoints to `router`: the device and control API under
    /// `/emulator/v1/play` (with the push key's JWKS and the push configuration), the OAuth
    /// 2.0 token endpoint at `/token` and the Android Publisher API v3 under
    /// `/androidpublisher/v3`; each request's notifications are handed to the push sink
    /// before its answer leaves. See docs/emulator.md.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let play = router.group("emulator/v1/play").add(middleware: PlayPushMiddleware(emulator: self))
        addDeviceRoutes(to: play)
        addDeviceControlRoutes(to: play)
        addPushRoutes(to: play)
        router.post("token") { request, _ -> Response in
            guard let body = await PlayJSON.body(of: request) else {
                return PlayJSON.make(
                    OAuthErrorResponse(error: "invalid_request", errorDescription: "the body is too large"),
                    status: .badRequest)
            }
            do throws(OAuthErrorResponse) {
                let form = Self.formFields(String(decoding: body, as: UTF8.self))
                return PlayJSON.make(try self.exchange(form: form, requestBase: PlayJSON.base(of: request)))
            } catch {
                return PlayJSON.make(error, status: error.error == "server_error" ? .internalServerError : .badRequest)
            }
        }
        let publisher = router.group("androidpublisher/v3/applications/:packageName")
            .add(middleware: PlayPushMiddleware(emulator: self))
        addPublisherRoutes(to: publisher.group("purchases/products/:productId/tokens"))
        addRefundRoutes(to: publisher)
        addSubscriptionRoutes(to: publisher.group("purchases"))
    }

    private func addDeviceRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.get("service-account") { request, _ -> Response in
            do {
                return PlayJSON.make(try self.serviceAccount(requestBase: PlayJSON.base(of: request)))
            } catch {
                return PlayJSON.emulator(PlayEmulatorError("internal_error", "\(error)", status: 500))
            }
        }
        group.get("license-key") { _, _ -> Response in
            do {
                return PlayJSON.make(["packageName": self.packageName, "publicKey": try self.licensePublicKey()])
            } catch {
                return PlayJSON.emulator(PlayEmulatorError("internal_error", "\(error)", status: 500))
            }
        }
        group.post("devices/:deviceId/purchases") { request, context -> Response in
            do {
                let deviceId = try context.parameters.require("deviceId")
                guard let body = await PlayJSON.body(of: request),
                    let purchase = try? JSONDecoder().decode(PlayDevicePurchaseRequest.self, from: body)
                else {
                    throw PlayEmulatorError(
                        "malformed_body",
                        "the body is not a JSON purchase: {\"productId\", \"obfuscatedAccountId\"?, …}")
                }
                return PlayJSON.make(try self.purchase(deviceId: deviceId, purchase))
            } catch let error as PlayEmulatorError {
                return PlayJSON.emulator(error)
            } catch {
                return PlayJSON.emulator(PlayEmulatorError("internal_error", "\(error)", status: 500))
            }
        }
    }
}

import Foundation
import Hummingbird
import PlayModel

extension PlayEmulator {
    /// Under `androidpublisher/v3/applications/{packageName}/purchases`:
    /// `purchases.subscriptionsv2` (`GET subscriptionsv2/tokens/{token}`,
    /// `POST subscriptionsv2/tokens/{token}:revoke` and `:cancel`) and `purchases.subscriptions`
    /// (`POST subscriptions/{subscriptionId}/tokens/{token}:acknowledge` and `:cancel`).
    func addSubscriptionRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.get("subscriptionsv2/tokens/:token") { request, context -> Response in
            do throws(GoogleErrorResponse) {
                try self.authorize(request.headers[.authorization])
                let token = Self.decoded(context.parameters.get("token") ?? "")
                guard !token.contains(":") else { throw GoogleErrors.unknownMethod(request.uri.path) }
                return PlayJSON.make(
                    try self.subscriptionPurchase(
                        packageName: Self.decoded(context.parameters.get("packageName") ?? ""), token: token))
            } catch {
                return PlayJSON.google(error)
            }
        }
        group.post("subscriptionsv2/tokens/:token") { request, context -> Response in
            do throws(GoogleErrorResponse) {
                try self.authorize(request.headers[.authorization])
                let packageName = Self.decoded(context.parameters.get("packageName") ?? "")
                let segment = Self.decoded(context.parameters.get("token") ?? "")
                if segment.hasSuffix(":cancel"), segment.count > ":cancel".count {
                    // The body's cancellationContext (who asked) changes nothing the emulator keeps.
                    if let body = await PlayJSON.body(of: request),
                        !body.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }),
                        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] == nil
                    {
                        throw GoogleErrors.invalidBody("The body is not a CancelSubscriptionPurchaseRequest.")
                    }
                    try self.cancelSubscription(
                        packageName: packageName, subscriptionId: nil, token: String(segment.dropLast(":cancel".count)))
                    return PlayJSON.make([String: String]())
                }
                guard segment.hasSuffix(":revoke"), segment.count > ":revoke".count else {
                    throw GoogleErrors.unknownMethod(request.uri.path)
                }
                guard let body = await PlayJSON.body(of: request),
                    let revoke = try? JSONDecoder().decode(RevokeSubscriptionPurchaseRequest.self, from: body)
                else { throw GoogleErrors.invalidBody("The body is not a RevokeSubscriptionPurchaseRequest.") }
                try self.revokeSubscription(
                    packageName: packageName,
                    token: String(segment.dropLast(":revoke".count)), revoke)
                return PlayJSON.make([String: String]())
            } catch {
                return PlayJSON.google(error)
            }
        }
        group.post("subscriptions/:subscriptionId/tokens/:token") { request, context -> Response in
            do throws(GoogleErrorResponse) {
                try self.authorize(request.headers[.authorization])
                let packageName = Self.decoded(context.parameters.get("packageName") ?? "")
                let subscriptionId = Self.decoded(context.parameters.get("subscriptionId") ?? "")
                let segment = Self.decoded(context.parameters.get("token") ?? "")
                if segment.hasSuffix(":acknowledge"), segment.count > ":acknowledge".count {
                    if let body = await PlayJSON.body(of: request),
                        !body.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) })
                    {
                        guard (try? JSONDecoder().decode(ProductPurchasesAcknowledgeRequest.self, from: body)) != nil
                        else {
                            throw GoogleErrors.invalidBody("The body is not a SubscriptionPurchasesAcknowledgeRequest.")
                        }
                    }
                    try self.acknowledgeSubscription(
                        packageName: packageName, subscriptionId: subscriptionId,
                        token: String(segment.dropLast(":acknowledge".count)))
                } else if segment.hasSuffix(":cancel"), segment.count > ":cancel".count {
                    try self.cancelSubscription(
                        packageName: packageName, subscriptionId: subscriptionId,
                        token: String(segment.dropLast(":cancel".count)))
                } else {
                    throw GoogleErrors.unknownMethod(request.uri.path)
                }
                return PlayJSON.noContent()
            } catch {
                return PlayJSON.google(error)
            }
        }
    }
}

import Foundation
import Hummingbird
import PlayModel

extension PlayEmulator {
    /// `purchases.products`: `GET …/tokens/{token}`, `POST …/tokens/{token}:acknowledge` and
    /// `POST …/tokens/{token}:consume`. The method suffix is part of the last path segment,
    /// so the handlers split it off themselves.
    func addPublisherRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.get(":token") { request, context -> Response in
            do throws(GoogleErrorResponse) {
                try self.authorize(request.headers[.authorization])
                let (packageName, productId, segment) = try Self.parameters(context)
                guard !segment.contains(":") else { throw GoogleErrors.unknownMethod(request.uri.path) }
                return PlayJSON.make(
                    try self.productPurchase(packageName: packageName, productId: productId, token: segment))
            } catch {
                return PlayJSON.google(error)
            }
        }
        group.post(":token") { request, context -> Response in
            do throws(GoogleErrorResponse) {
                try self.authorize(request.headers[.authorization])
                let (packageName, productId, segment) = try Self.parameters(context)
                let body = await PlayJSON.body(of: request)
                if let token = Self.token(segment, method: "acknowledge") {
                    var payload: String?
                    if let body, !body.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
                        guard
                            let decoded = try? JSONDecoder().decode(ProductPurchasesAcknowledgeRequest.self, from: body)
                        else { throw GoogleErrors.invalidBody("The body is not a ProductPurchasesAcknowledgeRequest.") }
                        payload = decoded.developerPayload
                    }
                    try self.acknowledge(
                        packageName: packageName, productId: productId, token: token, developerPayload: payload)
                } else if let token = Self.token(segment, method: "consume") {
                    try self.consume(packageName: packageName, productId: productId, token: token)
                } else {
                    throw GoogleErrors.unknownMethod(request.uri.path)
                }
                return PlayJSON.noContent()
            } catch {
                return PlayJSON.google(error)
            }
        }
    }

    /// The path's package name, product id and last segment (percent-decoded).
    private static func parameters(
        _ context: some RequestContext
    ) throws(GoogleErrorResponse) -> (String, String, String) {
        guard let packageName = context.parameters.get("packageName"),
            let productId = context.parameters.get("productId"), let segment = context.parameters.get("token")
        else { throw GoogleErrors.unknownMethod("") }
        func decoded(_ text: String) -> String { text.removingPercentEncoding ?? text }
        return (decoded(packageName), decoded(productId), decoded(segment))
    }

    /// The token of a `{token}:{method}` segment, or `nil` when it names another method.
    private static func token(_ segment: String, method: String) -> String? {
        let suffix = ":" + method
        guard segment.hasSuffix(suffix), segment.count > suffix.count else { return nil }
        return String(segment.dropLast(suffix.count))
    }
}

import Foundation
import Hummingbird
import PlayModel

extension PlayEmulator {
    /// Under `androidpublisher/v3/applications/{packageName}`: `orders.refund`
    /// (`POST orders/{orderId}:refund?revoke=`) and `purchases.voidedpurchases.list`
    /// (`GET purchases/voidedpurchases`).
    func addRefundRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.post("orders/:orderId") { request, context -> Response in
            do throws(GoogleErrorResponse) {
                try self.authorize(request.headers[.authorization])
                let packageName = Self.decoded(context.parameters.get("packageName") ?? "")
                let segment = Self.decoded(context.parameters.get("orderId") ?? "")
                guard segment.hasSuffix(":refund"), segment.count > ":refund".count else {
                    throw GoogleErrors.unknownMethod(request.uri.path)
                }
                let revoke =
                    try Self.bool(request.uri.queryParameters.get("revoke").map { String($0) }, name: "revoke") ?? false
                try self.refund(packageName: packageName, orderId: String(segment.dropLast(7)), revoke: revoke)
                return PlayJSON.noContent()
            } catch {
                return PlayJSON.google(error)
            }
        }
        group.get("purchases/voidedpurchases") { request, context -> Response in
            do throws(GoogleErrorResponse) {
                try self.authorize(request.headers[.authorization])
                let packageName = Self.decoded(context.parameters.get("packageName") ?? "")
                let parameters = request.uri.queryParameters
                func value(_ name: String) -> String? {
                    (parameters.get(name) ?? parameters.get("pageSelection." + name)).map { String($0) }
                }
                let query = VoidedPurchasesQuery(
                    startTime: try Self.int64(value("startTime"), name: "startTime"),
                    endTime: try Self.int64(value("endTime"), name: "endTime"),
                    maxResults: try Self.int64(value("maxResults"), name: "maxResults").map { Int(clamping: $0) },
                    token: value("token"), type: try Self.int64(value("type"), name: "type").map { Int(clamping: $0) },
                    includeQuantityBasedPartialRefund: try Self.bool(
                        value("includeQuantityBasedPartialRefund"), name: "includeQuantityBasedPartialRefund"))
                return PlayJSON.make(try self.voidedPurchases(packageName: packageName, query))
            } catch {
                return PlayJSON.google(error)
            }
        }
    }

    /// `text` percent-decoded.
    static func decoded(_ text: String) -> String { text.removingPercentEncoding ?? text }

    /// A query parameter read as Google reads a boolean: `true` or `false`; `nil` when absent.
    static func bool(_ text: String?, name: String) throws(GoogleErrorResponse) -> Bool? {
        guard let text else { return nil }
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: throw GoogleErrors.invalidParameter(name, "Invalid value at '\(name)' (TYPE_BOOL), \"\(text)\"")
        }
    }

    /// A query parameter read as an int64; `nil` when absent.
    static func int64(_ text: String?, name: String) throws(GoogleErrorResponse) -> Int64? {
        guard let text else { return nil }
        guard let value = Int64(text) else {
            throw GoogleErrors.invalidParameter(name, "Invalid value at '\(name)' (TYPE_INT64), \"\(text)\"")
        }
        return value
    }
}

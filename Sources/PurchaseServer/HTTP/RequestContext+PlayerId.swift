import Foundation
import Hummingbird

extension RequestContext {
    /// The `playerId` path parameter of an admin route, percent-decoded (the router hands
    /// path parameters over as sent, so `张三` arrives as `%E5%BC%A0%E4%B8%89`) and within the
    /// bounds of a player id; `invalid_request` for an encoding that does not decode to
    /// UTF-8 or a length out of bounds, as docs/openapi.yaml's `PlayerId` parameter says.
    func playerIdParameter() throws -> String {
        guard let playerId = try parameters.require("playerId").removingPercentEncoding else {
            throw ServerError.invalidRequest("playerId is not percent-encoded UTF-8")
        }
        try RequestField.check(playerId, "playerId", length: 1...RequestField.maximumPlayerIdLength)
        return playerId
    }
}

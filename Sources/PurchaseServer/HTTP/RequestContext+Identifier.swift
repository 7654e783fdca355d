import Foundation
import Hummingbird

extension RequestContext {
    /// The path parameter named after `kind` (`playerId`, `orderId`, `transactionId`),
    /// percent-decoded and checked as an identifier of that kind.
    ///
    /// Every path parameter follows this one rule: the router hands parameters over as sent
    /// (`张三` arrives as `%E5%BC%A0%E4%B8%89`), so each is decoded once here and then
    /// compared as the identifier it names. `invalid_request` for an encoding that does not
    /// decode to UTF-8; `invalid_identifier` for text that is not an identifier
    /// (``RequestField/identifier(_:_:field:)``).
    func identifierParameter(_ kind: IdentifierKind) throws -> String {
        guard let value = try parameters.require(kind.rawValue).removingPercentEncoding else {
            throw ServerError.invalidRequest("\(kind.rawValue) is not percent-encoded UTF-8")
        }
        try RequestField.identifier(value, kind)
        return value
    }
}

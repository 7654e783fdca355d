import Ledger

/// Bounds on the text a client sends, checked before anything is stored or passed on.
///
/// Lengths count Unicode scalars (code points), as JSON Schema's `minLength`/`maxLength`
/// in docs/openapi.yaml do, so a string the document allows is never refused for its
/// length; a bound of n characters stores at most 4n bytes.
enum RequestField {
    /// Checks that `text`, when present, is `length` characters long; `invalid_request`
    /// naming `field` otherwise. For free text (reasons, event names and attributes);
    /// identifiers go through ``identifier(_:_:)``.
    static func check(_ text: String?, _ field: String, length: ClosedRange<Int>) throws(ServerError) {
        guard let text else { return }
        let count = text.unicodeScalars.count
        guard length.contains(count) else {
            throw .invalidRequest(
                "\(field) must be \(length.lowerBound) to \(length.upperBound) characters, not \(count)")
        }
    }

    /// Checks that `text`, when present, is an identifier of `kind` (``IdentifierRule``,
    /// within the kind's length); `invalid_identifier` naming `field` (the kind's name by
    /// default) and the problem otherwise.
    static func identifier(_ text: String?, _ kind: IdentifierKind, field: String? = nil) throws(ServerError) {
        guard let text else { return }
        if let problem = IdentifierRule.problem(with: text, maximumLength: kind.maximumLength) {
            throw .invalidIdentifier(field ?? kind.rawValue, problem)
        }
    }

    /// Checks that every item `grants` names is an identifier (``IdentifierKind/item``).
    static func items(_ grants: Grants, field: String = "grants") throws(ServerError) {
        for item in grants.keys.sorted() {
            try identifier(item, .item, field: "an item name in \(field)")
        }
    }
}

/// The identifiers the HTTP API takes, each with its longest length in characters.
enum IdentifierKind: String {
    case playerId, orderId, transactionId, productId
    /// A Google Play purchase token (Google's are about 150 characters).
    case purchaseToken
    /// The name of an item a grant moves (`coins`).
    case item
    /// The game's idempotency key of a spend.
    case idempotencyKey

    /// The most Unicode scalars an identifier of this kind has.
    var maximumLength: Int {
        switch self {
        case .playerId: 256
        case .orderId, .productId: 128
        case .transactionId: 64
        case .purchaseToken: 512
        case .item: ItemName.maximumLength
        case .idempotencyKey: Spend.maximumIdempotencyKeyLength
        }
    }
}

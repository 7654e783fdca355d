import Hummingbird
import Ledger

/// The paging query of a list endpoint: `limit` (1 to ``LedgerPageRequest/maximumLimit``,
/// default ``defaultLimit``) and `cursor` (the `nextCursor` of the previous page).
enum PageQuery {
    /// The page size when `limit` is absent.
    static let defaultLimit = 100

    /// The page `request` asks for; `invalid_request` naming the parameter when it is not
    /// one. `numericIds` requires a cursor over numeric ids (history events).
    static func pageRequest(_ request: Request, numericIds: Bool = false) throws(ServerError) -> LedgerPageRequest {
        let query = request.uri.queryParameters
        var limit = defaultLimit
        if let text = query.get("limit") {
            guard let value = Int(text), (1...LedgerPageRequest.maximumLimit).contains(value) else {
                throw .invalidRequest("limit must be a whole number from 1 to \(LedgerPageRequest.maximumLimit)")
            }
            limit = value
        }
        var after: LedgerCursor?
        if let token = query.get("cursor") {
            guard let cursor = LedgerCursor(token: token), !numericIds || Int64(cursor.id) != nil else {
                throw .invalidRequest("cursor is not a nextCursor this server returned")
            }
            after = cursor
        }
        return LedgerPageRequest(after: after, limit: limit)
    }
}

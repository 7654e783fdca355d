import Ledger

extension HistoryEventType {
    /// The server finished a transaction it delivered at Apple (Finish Transaction), so that
    /// the customer's device no longer holds it unfinished; the detail names the `source`
    /// that delivered it and the catalog's `productType`.
    public static let finishedAtApple: HistoryEventType = "finished_at_apple"
    /// Finish Transaction failed; the detail holds Apple's answer (`error`, `httpStatus`,
    /// `errorCode`, `message`) and whether it is `retryable` (`true`: the notification stays
    /// unprocessed and Finish Transaction is called again when Apple resends it or the
    /// reconciler reads it; `false`: not tried again).
    public static let finishAtAppleFailed: HistoryEventType = "finish_at_apple_failed"
    /// The server set the purchase's `appAccountToken` at Apple (Set App Account Token)
    /// after support bound it to a player, so that Apple's later signed data and
    /// notifications about it carry the token of the order it was bound to; the detail
    /// names the `originalTransactionId`.
    public static let appAccountTokenSetAtApple: HistoryEventType = "app_account_token_set_at_apple"
    /// Set App Account Token failed; the detail holds Apple's answer like
    /// ``finishAtAppleFailed``. The binding in the ledger stands; repeating support's
    /// order lookup sets the token again.
    public static let appAccountTokenAtAppleFailed: HistoryEventType = "app_account_token_at_apple_failed"
}

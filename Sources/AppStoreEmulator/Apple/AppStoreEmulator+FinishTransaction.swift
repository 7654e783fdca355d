import AppStoreModel

/// Finish Transaction (App Store Server API 1.20).
extension AppStoreEmulator {
    /// Finish Transaction: the server's `finish()`; the transaction leaves its device's
    /// unfinished transactions (and a consumable leaves the device's receipt), as when the
    /// app finishes it. Finishing a finished, refunded or revoked transaction changes
    /// nothing and succeeds.
    ///
    /// - Throws: ``APIError`` 400 with 4000048 for an app transaction id; 404 with 4040010
    ///   when `environment` has no such transaction.
    public func finishTransaction(_ transactionId: String, environment: AppStoreEnvironment) throws {
        try refuseAppTransactionId(transactionId, environment: environment)
        var transaction = try visibleTransaction(transactionId, environment: environment)
        guard !transaction.finished else { return }
        transaction.finished = true
        try commit([.transaction(transaction)])
    }
}

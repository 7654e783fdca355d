import AppStoreModel

/// Send Consumption Information (version 2, and version 1 refused), and what was sent.
extension AppStoreEmulator {
    /// Send Consumption Information: records what the app knows about a purchase whose
    /// refund the customer asked for; ``consumptionInformation(_:)`` reads it back. A later
    /// answer replaces an earlier one.
    ///
    /// Apple takes it for any product type, and documents no error for an answer to no
    /// `CONSUMPTION_REQUEST` (only that answers should come within 12 hours of one): the
    /// emulator records it whenever it comes.
    ///
    /// - Throws: ``APIError`` 400 for a body Apple refuses (4000035 without consent, 4000041
    ///   without `sampleContentProvided`, 4000036 without a known `deliveryStatus`, 4000044
    ///   for an unknown `refundPreference`, 4000000 for a `consumptionPercentage` outside 0
    ///   to 100,000 or not 0 for an undelivered purchase), 4000048 for an app
    ///   transaction id, 4000209 for a `consumptionPercentage` of an auto-renewable
    ///   subscription, `ConsumptionPercentageOutOfRangeError` (4000000, see
    ///   ``APIError/unnumbered(_:_:)``) for `GRANT_PRORATED` of any other product without a
    ///   share strictly between 0 and 100,000; 404 with 4040010 for an unknown transaction.
    public func recordConsumption(
        _ transactionId: String,
        _ consumption: ConsumptionRequest,
        environment: AppStoreEnvironment
    ) throws {
        try ServerAPIValidation.check(consumption)
        try refuseAppTransactionId(transactionId, environment: environment)
        var transaction = try visibleTransaction(transactionId, environment: environment)
        if transaction.type == .autoRenewable {
            // Apple computes a subscription's share from the time elapsed.
            guard consumption.consumptionPercentage == nil else {
                throw APIError(
                    status: 400, code: .consumptionPercentageAutoRenewableSubscription,
                    "consumptionPercentage is not supported for auto-renewable subscription transactions")
            }
        } else if consumption.refundPreference == .grantProrated,
            !(1..<Milliunits.whole).contains(consumption.consumptionPercentage ?? 0)
        {
            throw APIError.unnumbered(
                "ConsumptionPercentageOutOfRangeError",
                "GRANT_PRORATED needs a consumptionPercentage greater than 0 and less than \(Milliunits.whole)")
        }
        transaction.consumption = consumption
        try commit([.transaction(transaction)])
    }

    /// Send Consumption Information V1, refused: Apple keeps it for Advanced Commerce API
    /// purchases, and the emulator sells none.
    ///
    /// Apple documents no error for an ordinary In-App Purchase sent there; the emulator
    /// answers with the closest one the endpoint documents, 400 with 4000047
    /// (`InvalidTransactionTypeNotSupportedError`: the transaction is of a kind the endpoint
    /// does not support).
    ///
    /// - Throws: ``APIError`` always: 404 with 4040010 for an unknown transaction, 400 with
    ///   4000047 for any other.
    public func refuseConsumptionV1(_ transactionId: String, environment: AppStoreEnvironment) throws(APIError)
        -> Never
    {
        _ = try visibleTransaction(transactionId, environment: environment)
        throw APIError(
            status: 400, code: .invalidTransactionTypeNotSupported,
            "Send Consumption Information V1 takes only Advanced Commerce API transactions; "
                + "send In-App Purchases to PUT /inApps/v2/transactions/consumption/{transactionId}")
    }

    /// The consumption information the developer last sent for a transaction, if any.
    ///
    /// - Throws: ``EmulatorError`` `unknown_transaction` (404).
    public func consumptionInformation(_ transactionId: String) throws -> ConsumptionRequest? {
        try transaction(transactionId).consumption
    }
}

/// The body of Send Consumption Information
/// (`PUT /inApps/v2/transactions/consumption/{transactionId}`, App Store Server API 1.16):
/// what the app knows about a purchase whose refund the customer asked for, sent within
/// 12 hours of the `CONSUMPTION_REQUEST` notification, and only with the customer's
/// consent.
///
/// Apple requires ``customerConsented`` (and it must be `true`), ``sampleContentProvided``
/// and ``deliveryStatus``; ``consumptionPercentage`` and ``refundPreference`` are
/// optional. Property names and JSON keys are Apple's; absent fields are left out of the
/// JSON.
public struct ConsumptionRequest: Hashable, Codable, Sendable {
    /// Whether the customer consented to sharing consumption data with the App Store;
    /// Apple refuses the request unless it is `true`.
    public var customerConsented: Bool?
    /// Whether a free sample, trial or description of the content was available before
    /// purchase.
    public var sampleContentProvided: Bool?
    /// Whether the purchase was delivered and works.
    public var deliveryStatus: DeliveryStatus?
    /// How much of the purchase the customer consumed, in milliunits: 0 (none) to
    /// 100,000 (all of it).
    public var consumptionPercentage: Int?
    /// The refund outcome the app would prefer.
    public var refundPreference: RefundPreference?

    /// Creates a request; every field defaults to absent.
    public init(
        customerConsented: Bool? = nil,
        sampleContentProvided: Bool? = nil,
        deliveryStatus: DeliveryStatus? = nil,
        consumptionPercentage: Int? = nil,
        refundPreference: RefundPreference? = nil
    ) {
        self.customerConsented = customerConsented
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.consumptionPercentage = consumptionPercentage
        self.refundPreference = refundPreference
    }
}

/// The body of Send Consumption Information V1
/// (`PUT /inApps/v1/transactions/consumption/{transactionId}`), the integer-coded shape
/// Apple now keeps for Advanced Commerce API purchases; ordinary In-App Purchases send
/// ``ConsumptionRequest`` to the V2 endpoint instead.
///
/// Apple requires ``customerConsented`` `true` and every other field; each integer field
/// has 0 for "undeclared". Property names and JSON keys are Apple's; absent fields are left
/// out of the JSON.
public struct ConsumptionRequestV1: Hashable, Codable, Sendable {
    /// Whether the customer consented to sharing consumption data with the App Store;
    /// must be `true`.
    public var customerConsented: Bool?
    /// How much of the purchase was consumed: 0 undeclared, 1 not consumed, 2 partially
    /// consumed, 3 fully consumed.
    public var consumptionStatus: Int?
    /// Where the purchase was consumed: 0 undeclared, 1 an Apple platform, 2 another
    /// platform.
    public var platform: Int?
    /// Whether a free sample, trial or description of the content was available before
    /// purchase.
    public var sampleContentProvided: Bool?
    /// Whether the purchase was delivered and works: 0 delivered and working, 1 not
    /// delivered (quality issue), 2 wrong item delivered, 3 not delivered (server outage),
    /// 4 not delivered (in-game currency change), 5 not delivered (other reason).
    public var deliveryStatus: Int?
    /// The UUID the app bound the purchase to, lowercase; an empty string when there is
    /// none.
    public var appAccountToken: String?
    /// The age of the customer's account: 0 undeclared, 1 up to 3 days, 2 3–10 days,
    /// 3 10–30 days, 4 30–90 days, 5 90–180 days, 6 180–365 days, 7 over 365 days.
    public var accountTenure: Int?
    /// How long the customer used the app: 0 undeclared, 1 up to 5 minutes, 2 5–60
    /// minutes, 3 1–6 hours, 4 6–24 hours, 5 1–4 days, 6 4–16 days, 7 over 16 days.
    public var playTime: Int?
    /// Refunds the customer received in the app, in US dollars: 0 undeclared, 1 none,
    /// 2 0.01–49.99, 3 50–99.99, 4 100–499.99, 5 500–999.99, 6 1000–1999.99, 7 over 2000.
    public var lifetimeDollarsRefunded: Int?
    /// Purchases the customer made in the app, in US dollars, same bands as
    /// ``lifetimeDollarsRefunded``.
    public var lifetimeDollarsPurchased: Int?
    /// The customer's account status: 0 undeclared, 1 active, 2 suspended, 3 terminated,
    /// 4 limited access.
    public var userStatus: Int?
    /// The app's preference: 0 undeclared, 1 grant the refund, 2 decline it, 3 no
    /// preference.
    public var refundPreference: Int?

    /// Creates a request; every field defaults to absent.
    public init(
        customerConsented: Bool? = nil,
        consumptionStatus: Int? = nil,
        platform: Int? = nil,
        sampleContentProvided: Bool? = nil,
        deliveryStatus: Int? = nil,
        appAccountToken: String? = nil,
        accountTenure: Int? = nil,
        playTime: Int? = nil,
        lifetimeDollarsRefunded: Int? = nil,
        lifetimeDollarsPurchased: Int? = nil,
        userStatus: Int? = nil,
        refundPreference: Int? = nil
    ) {
        self.customerConsented = customerConsented
        self.consumptionStatus = consumptionStatus
        self.platform = platform
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.appAccountToken = appAccountToken
        self.accountTenure = accountTenure
        self.playTime = playTime
        self.lifetimeDollarsRefunded = lifetimeDollarsRefunded
        self.lifetimeDollarsPurchased = lifetimeDollarsPurchased
        self.userStatus = userStatus
        self.refundPreference = refundPreference
    }
}

import PlayModel

/// The optional body of `POST /emulator/v1/play/devices/{deviceId}/purchases/{purchaseToken}:refund`:
/// how the user got money back.
public struct PlayDeviceRefundRequest: Codable, Hashable, Sendable {
    /// Units to refund; all units still refundable when absent. Fewer than that is a
    /// quantity-based partial refund.
    public var quantity: Int?
    /// Google's `voidedReason` by name: `other`, `remorse` (the default), `not_received`,
    /// `defective`, `accidental_purchase`, `fraud`, `friendly_fraud`, `chargeback`.
    public var reason: String?
    /// Google's `voidedSource` by name: `user` (the default), `developer`, `google`.
    public var source: String?

    /// Creates a request.
    public init(quantity: Int? = nil, reason: String? = nil, source: String? = nil) {
        self.quantity = quantity
        self.reason = reason
        self.source = source
    }

    /// The reasons by name, Google's numbers.
    public static let reasons: [String: Int] = [
        "other": VoidedReason.other, "remorse": VoidedReason.remorse, "not_received": VoidedReason.notReceived,
        "defective": VoidedReason.defective, "accidental_purchase": VoidedReason.accidentalPurchase,
        "fraud": VoidedReason.fraud, "friendly_fraud": VoidedReason.friendlyFraud,
        "chargeback": VoidedReason.chargeback,
    ]
    /// The sources by name, Google's numbers.
    public static let sources: [String: Int] = [
        "user": VoidedSource.user, "developer": VoidedSource.developer, "google": VoidedSource.google,
    ]

    /// ``reason``'s number.
    ///
    /// - Throws: ``PlayEmulatorError`` 400 `invalid_request` for an unknown name.
    func voidedReason() throws(PlayEmulatorError) -> Int {
        guard let number = Self.reasons[reason ?? "remorse"] else {
            throw PlayEmulatorError(
                "invalid_request", "reason must be one of \(Self.reasons.keys.sorted().joined(separator: ", "))")
        }
        return number
    }

    /// ``source``'s number.
    ///
    /// - Throws: ``PlayEmulatorError`` 400 `invalid_request` for an unknown name.
    func voidedSource() throws(PlayEmulatorError) -> Int {
        guard let number = Self.sources[source ?? "user"] else {
            throw PlayEmulatorError(
                "invalid_request", "source must be one of \(Self.sources.keys.sorted().joined(separator: ", "))")
        }
        return number
    }
}

import Foundation

/// The faults the emulator injects, set with `PUT /emulator/v1/faults`.
///
/// Endpoint keys are operation names (`verifyReceipt`, `getTransactionInfo`,
/// `getTransactionHistory`, `lookUpOrderId`, `getNotificationHistory`,
/// `requestTestNotification`, `sendConsumptionInformation`, `getRefundHistory`) or the
/// group `serverAPI`, which applies to every Server API operation without its own entry.
public struct EmulatorFaults: Codable, Hashable, Sendable {
    /// Seeds every random fault decision, so a run replays.
    public var seed: UInt64?
    /// Faults per endpoint or group.
    public var endpoints: [String: EndpointFaults]
    /// Faults in notification delivery.
    public var notifications: NotificationFaults?

    /// No faults.
    public init(
        seed: UInt64? = nil, endpoints: [String: EndpointFaults] = [:], notifications: NotificationFaults? = nil
    ) {
        self.seed = seed
        self.endpoints = endpoints
        self.notifications = notifications
    }

    /// Decodes faults; every key may be left out (`{"notifications": {"dropRate": 1}}`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seed = try container.decodeIfPresent(UInt64.self, forKey: .seed)
        endpoints = try container.decodeIfPresent([String: EndpointFaults].self, forKey: .endpoints) ?? [:]
        notifications = try container.decodeIfPresent(NotificationFaults.self, forKey: .notifications)
    }

    /// The faults for `operation`, falling back to its `group`.
    func faults(for operation: String, group: String?) -> EndpointFaults? {
        endpoints[operation] ?? group.flatMap { endpoints[$0] }
    }
}

/// What the fault injector decided for one request.
enum FaultDecision: Equatable {
    case proceed
    case outage
    case error
}

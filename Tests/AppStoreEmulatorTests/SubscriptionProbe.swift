import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import Foundation
import Testing

/// Reads what an emulator told about subscriptions: its notifications, verified, and the
/// signed transaction and renewal info they carry.
struct SubscriptionProbe {
    let emulator: AppStoreEmulator
    let verifier: JWSVerifier
    /// How many notifications were read so far.
    private(set) var seen = 0

    init(_ emulator: AppStoreEmulator) {
        self.emulator = emulator
        self.verifier = JWSVerifier(roots: emulator.trustRoots)
    }

    /// A verified notification with the transaction and renewal info it carries.
    struct Told {
        var type: NotificationType
        var subtype: NotificationSubtype?
        var status: SubscriptionStatus?
        var transaction: JWSTransactionDecodedPayload?
        var renewal: JWSRenewalInfoDecodedPayload?
        /// `TYPE` or `TYPE/SUBTYPE`.
        var name: String { subtype.map { "\(type.rawValue)/\($0.rawValue)" } ?? type.rawValue }
    }

    /// The notifications issued since the last call, verified, oldest first.
    mutating func next() async throws -> [Told] {
        let all = await emulator.notifications()
        var told: [Told] = []
        for notification in all.dropFirst(seen) {
            let verified = try await verifier.verifyNotification(notification.signedPayload)
            told.append(
                Told(
                    type: verified.notification.notificationType ?? "",
                    subtype: verified.notification.subtype,
                    status: verified.notification.data?.status,
                    transaction: verified.transaction,
                    renewal: verified.renewalInfo))
        }
        seen = all.count
        return told
    }

    /// The names of the notifications issued since the last call.
    mutating func names() async throws -> [String] {
        try await next().map(\.name)
    }

    /// The one notification issued since the last call.
    mutating func only(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Told {
        let told = try await next()
        #expect(told.count == 1, "\(told.map(\.name))", sourceLocation: sourceLocation)
        return try #require(told.last, sourceLocation: sourceLocation)
    }

    /// The chain's status in Get All Subscription Statuses, with its verified latest
    /// transaction and renewal info.
    func status(of originalTransactionId: String) async throws
        -> (SubscriptionStatus?, JWSTransactionDecodedPayload, JWSRenewalInfoDecodedPayload)
    {
        let response = try await emulator.subscriptionStatuses(originalTransactionId, environment: .sandbox)
        let item = try #require(
            response.data?.flatMap { $0.lastTransactions ?? [] }.first {
                $0.originalTransactionId == originalTransactionId
            })
        return (
            item.status,
            try await verifier.verifyTransaction(try #require(item.signedTransactionInfo)),
            try await verifier.verifyRenewalInfo(try #require(item.signedRenewalInfo))
        )
    }
}

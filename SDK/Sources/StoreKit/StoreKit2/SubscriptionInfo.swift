import Foundation

extension Product {
    /// Information about an auto-renewable subscription.
    ///
    /// Apple: `struct SubscriptionInfo` (https://developer.apple.com/documentation/storekit/product/subscriptioninfo).
    public struct SubscriptionInfo: Hashable, Sendable {
        /// The group identifier of the subscription.
        public let subscriptionGroupID: String
        /// The duration that this subscription lasts before auto-renewing.
        public let subscriptionPeriod: Product.SubscriptionPeriod
        /// The level of the subscription in its group (1 is the highest).
        public let groupLevel: Int

        /// The status of this subscription group for the account.
        public var status: [Product.SubscriptionInfo.Status] {
            get async throws { try await Self.status(for: subscriptionGroupID) }
        }

        /// Gets the subscription status of a subscription group.
        public static func status(for groupID: String) async throws -> [Product.SubscriptionInfo.Status] {
            let client = try StoreKit2Call.client()
            return try await StoreKit2Call.run {
                let response = try client.subscriptionStatuses()
                return try (response.data ?? []).filter { $0.subscriptionGroupIdentifier == groupID }
                    .flatMap { $0.lastTransactions ?? [] }
                    .map { item in
                        Status(
                            state: RenewalState(rawValue: item.status),
                            transaction: try Transaction.verified(item.signedTransactionInfo, client.configuration),
                            renewalInfo: try SignedPayload.verify(
                                item.signedRenewalInfo, configuration: client.configuration
                            ) { try RenewalInfo(payload: $0, storage: $1) })
                    }
            }
        }

        /// The renewal states of auto-renewable subscriptions.
        public struct RenewalState: RawRepresentable, Hashable, Sendable {
            public let rawValue: Int
            /// Creates a renewal state from its raw value.
            public init(rawValue: Int) { self.rawValue = rawValue }
            /// The customer is currently subscribed.
            public static let subscribed = RenewalState(rawValue: 1)
            /// The subscription is expired.
            public static let expired = RenewalState(rawValue: 2)
            /// The subscription is in a billing retry period.
            public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
            /// The subscription is in a billing grace period state.
            public static let inGracePeriod = RenewalState(rawValue: 4)
            /// The App Store revoked the customer's access to the subscription group.
            public static let revoked = RenewalState(rawValue: 5)
        }

        /// The renewal status information for an auto-renewable subscription.
        public struct Status: Hashable, Sendable {
            /// The renewal state of the auto-renewable subscription.
            public let state: Product.SubscriptionInfo.RenewalState
            /// The latest transaction for the subscription group.
            public let transaction: VerificationResult<Transaction>
            /// The renewal information for the auto-renewable subscription.
            public let renewalInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>
        }

        /// Information about the next renewal period of an auto-renewable subscription.
        public struct RenewalInfo: Hashable, Sendable, JWSBacked {
            /// The original transaction identifier of the subscription group.
            public let originalTransactionID: UInt64
            /// The product identifier of the current subscription.
            public let currentProductID: String
            /// A Boolean value that indicates whether the subscription renews.
            public let willAutoRenew: Bool
            /// The product identifier of the product that renews at the next billing period.
            public let autoRenewPreference: String?
            /// A Boolean value that indicates whether the App Store is trying to renew an
            /// expired subscription.
            public let isInBillingRetry: Bool
            /// The date that the grace period expires.
            public let gracePeriodExpirationDate: Date?
            /// The date the signature was created.
            public let signedDate: Date
            /// A JSON representation of the renewal information.
            public let jsonRepresentation: Data

            package let jwsStorage: JWSStorage

            private struct Payload: Decodable {
                var originalTransactionId: String?
                var productId: String?
                var autoRenewProductId: String?
                var autoRenewStatus: Int?
                var isInBillingRetryPeriod: Bool?
                var gracePeriodExpiresDate: Double?
            }

            package init(payload data: Data, storage: JWSStorage) throws {
                let payload = try JSONDecoder().decode(Payload.self, from: data)
                originalTransactionID = payload.originalTransactionId.flatMap(UInt64.init) ?? 0
                currentProductID = payload.productId ?? ""
                willAutoRenew = payload.autoRenewStatus == 1
                autoRenewPreference = payload.autoRenewProductId
                isInBillingRetry = payload.isInBillingRetryPeriod ?? false
                gracePeriodExpirationDate = payload.gracePeriodExpiresDate.map(Date.init(milliseconds:))
                signedDate = storage.signedDate
                jsonRepresentation = data
                jwsStorage = storage
            }

            public static func == (lhs: RenewalInfo, rhs: RenewalInfo) -> Bool {
                lhs.jwsStorage.jws.compact == rhs.jwsStorage.jws.compact
            }

            public func hash(into hasher: inout Hasher) {
                hasher.combine(jwsStorage.jws.compact)
            }
        }
    }

    /// A period of time expressed as a unit and value.
    ///
    /// Apple: `struct SubscriptionPeriod` (https://developer.apple.com/documentation/storekit/product/subscriptionperiod).
    public struct SubscriptionPeriod: Hashable, Sendable {
        /// The unit of time that this period represents.
        public let unit: Product.SubscriptionPeriod.Unit
        /// The number of units that the period represents.
        public let value: Int

        /// Units of time.
        public enum Unit: Hashable, Sendable {
            case day, week, month, year
        }

        init(seconds: Int64) {
            let days = Int(seconds / 86_400)
            switch days {
            case 7: (unit, value) = (.week, 1)
            case 28...31: (unit, value) = (.month, 1)
            case 59...62: (unit, value) = (.month, 2)
            case 89...92: (unit, value) = (.month, 3)
            case 180...184: (unit, value) = (.month, 6)
            case 365...366: (unit, value) = (.year, 1)
            default: (unit, value) = (.day, max(days, 1))
            }
        }
    }
}

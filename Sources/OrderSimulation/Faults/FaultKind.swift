/// A fault the simulation injects, each at its own rate (see ``defaultRate`` for what the
/// rate counts).
public enum FaultKind: String, CaseIterable, Codable, Hashable, Sendable, Comparable, CodingKeyRepresentable {
    /// The app is killed at one of the pipeline's step boundaries (per purchase).
    case appKill
    /// The app is deleted and reinstalled: its journal is gone, the Keychain mirror is
    /// kept (per purchase).
    case reinstallKeepingKeychain
    /// The app is deleted and reinstalled with its Keychain mirror gone too (per purchase).
    case reinstallLosingKeychain
    /// A request from a device to the purchase server never arrives (per request).
    case networkDrop
    /// A request arrives but its answer is lost: the device times out (per request).
    case networkTimeout
    /// The purchase server is torn down and rebuilt on the same database (per purchase).
    case serverRestart
    /// Apple's verifyReceipt answers a retryable error (per request to it).
    case verifyReceiptOutage
    /// The App Store Server API answers HTTP 500 (per request to it).
    case serverAPIOutage
    /// A notification is never sent (per notification).
    case notificationDrop
    /// A notification attempt is posted twice (per attempt).
    case notificationDuplicate
    /// A notification attempt is held back up to a second, so later ones overtake it (per attempt).
    case notificationReorder
    /// A notification attempt is held back several seconds, past the app's report (per attempt).
    case notificationDelay
    /// Apple refunds a charge, before or after its delivery (per charge).
    case refund
    /// Apple reverses a refund (per refund).
    case refundReversal
    /// Apple asks for consumption information (per charge).
    case consumptionRequest
    /// Another player signs in on a shared device, before or in the middle of a purchase
    /// (per purchase on a shared device).
    case accountSwitch
    /// The customer buys from the App Store page instead of the game, sometimes while
    /// nobody is signed in (per purchase).
    case promotedPurchase
    /// The purchase waits for a parent, who approves or declines it later (per purchase).
    case askToBuy
    /// A malicious device reports a transaction it signed itself or tampered with (per purchase).
    case forgedReport
    /// A malicious device reports another player's genuine signed transaction (per purchase).
    case replayedReport
    /// A subscription's renewal fails and Apple retries billing (per renewal of a
    /// subscription player's chain).
    case billingFailure
    /// A failed renewal enters the grace period, the player staying entitled (per billing
    /// failure).
    case gracePeriod
    /// A subscriber upgrades to the group's higher level at once, Apple refunding the rest of
    /// the period prorated (per subscription step).
    case subscriptionUpgrade
    /// Apple refunds one period of a subscription, the latest or an earlier one (per
    /// subscription step).
    case periodRefund
    /// The buyer stops sharing a subscription or a purchase with the family member (per
    /// family share).
    case familyRevoke
    /// The subscriber restores purchases on a second device of the same Apple account (per
    /// subscription step).
    case restoreOnSecondDevice
    /// A second game account signed in on the subscriber's device restores purchases of
    /// the same Apple account (per subscription step).
    case restoreBySecondAccount
    /// An Android player pays slowly (cash, a bank transfer): Google holds the purchase
    /// pending until it is paid or canceled later (per Android purchase).
    case playPending
    /// The server's call to Google's acknowledge or consume fails (HTTP 503), so the
    /// purchase stays unacknowledged until a retry succeeds (per call). At rate 1 the calls
    /// fail to the end of the run, quiescing included: Google's three-day rule then refunds
    /// the purchases, which the oracle reports.
    case playAcknowledgementFailure
    /// The Android player gets the money back (a refund from Google Play's order page),
    /// before or after the delivery (per Android charge).
    case playVoid

    /// The rate a run uses unless told otherwise.
    public var defaultRate: Double {
        switch self {
        case .appKill: 0.1
        case .reinstallKeepingKeychain, .reinstallLosingKeychain: 0.01
        case .networkDrop: 0.05
        case .networkTimeout: 0.03
        case .serverRestart: 0.004
        case .verifyReceiptOutage, .serverAPIOutage: 0.2
        case .notificationDrop, .notificationDuplicate: 0.1
        case .notificationReorder: 0.2
        case .notificationDelay: 0.05
        case .refund: 0.05
        case .refundReversal: 0.3
        case .consumptionRequest: 0.03
        case .accountSwitch: 0.1
        case .promotedPurchase, .askToBuy: 0.05
        case .forgedReport, .replayedReport: 0.02
        case .billingFailure, .subscriptionUpgrade: 0.15
        case .gracePeriod, .familyRevoke: 0.5
        case .periodRefund: 0.05
        case .restoreOnSecondDevice, .restoreBySecondAccount: 0.1
        case .playPending: 0.1
        case .playAcknowledgementFailure: 0.2
        case .playVoid: 0.05
        }
    }

    public static func < (lhs: FaultKind, rhs: FaultKind) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

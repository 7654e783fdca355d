import AppStoreEmulator
import AppStoreModel
import Foundation
import Ledger

extension Judge {
    /// The entitlement oracle's verdict on the run, with the entitlement lag: Apple's paid
    /// periods and Apple's word at the end against every entitlement the ledger keeps for
    /// the run's players, and its history; the lag measured from each of Apple's
    /// notifications about a subscription (sent or dropped: the change happened at Apple
    /// either way).
    func entitlements() async throws -> (EntitlementVerdict, EntitlementLag) {
        let store = try await stack.store
        let now = Date()
        let familyPlayers = await subscriptions.familyPlayers
        var periods: [PaidPeriod] = []
        var transactions: [String: EmulatedTransaction] = [:]
        var holders: [String: [String]] = [:]
        for transaction in await stack.emulator.ledger() where Self.unlocksEntitlement(transaction.type) {
            transactions[transaction.transactionId] = transaction
            let family = familyPlayers[transaction.deviceId]
            var players: [String] = []
            if let token = transaction.appAccountToken, let payer = await book.payer(token: token) {
                players = [payer]
            } else if let family {
                players = [family]
            }
            if !players.isEmpty, holders[transaction.originalTransactionId] == nil {
                holders[transaction.originalTransactionId] = players
            }
            periods.append(
                PaidPeriod(
                    transactionId: transaction.transactionId, originalTransactionId: transaction.originalTransactionId,
                    productId: transaction.productId, purchaseDate: Self.date(transaction.purchaseDate),
                    expiresDate: transaction.expiresDate.map(Self.date), standing: !transaction.isRevoked,
                    holders: players, ownership: family == nil ? "PURCHASED" : "FAMILY_SHARED",
                    refundReversed: transaction.refundState == .reversed))
        }
        var apple: [AppleEntitlement] = []
        for chain in Set(transactions.values.map(\.originalTransactionId)).sorted() {
            // A purchase that does not renew is its own chain; a subscription's latest
            // transaction is the emulator's word.
            let latestId =
                transactions[chain]?.type == .autoRenewable
                ? try await stack.emulator.subscription(chain).latestTransactionId : chain
            guard let latest = transactions[latestId] else {
                throw SimulationError("the emulator's chain \(chain) names an unknown transaction \(latestId)")
            }
            apple.append(try await appleWord(chain: chain, latest: latest, at: now))
        }
        var rows: [Entitlement] = []
        var history: [EntitlementChange] = []
        for player in Set(players).sorted() {
            rows += try await store.entitlements(playerId: player)
            history += try await store.timeline(playerId: player).compactMap(EntitlementChange.init)
        }
        // Judged in the order the ledger wrote them, not the order their transactions began.
        history = EntitlementChange.inWriteOrder(history)
        let notifications = await stack.emulator.notifications()
        let changes = notifications.compactMap { notification -> AppleChange? in
            guard let transaction = notification.transactionId.flatMap({ transactions[$0] }),
                let holder = holders[transaction.originalTransactionId]?.last
            else { return nil }
            return Self.change(
                notification, transaction: transaction, holder: holder,
                latest: Self.isLatest(transaction, at: notification.signedDate, among: transactions.values))
        }
        let lag = EntitlementLag.measure(changes: changes, history: history)
        // Each period must be entitled no later than its start plus the run's longest
        // measured lag (and a second), then to its end.
        var verdict = EntitlementOracle(tolerance: Self.entitlementTolerance, lagBound: lag.maximumSeconds + 1).judge(
            periods: periods, apple: apple, ledger: rows, history: history, at: now)
        for index in verdict.violations.indices {
            verdict.violations[index].history = chainHistory(
                of: verdict.violations[index].originalTransactionId, transactions: transactions,
                notifications: notifications, ledger: history)
        }
        return (verdict, lag)
    }

    /// How far the ledger's dates may differ from Apple's: dates travel as milliseconds, and a
    /// simulated month lasts a second, so a second's tolerance would leave no month to check.
    static let entitlementTolerance: TimeInterval = 0.01

    /// Renewals Apple made, and how many of their notifications the notification faults
    /// dropped.
    func renewals() async -> (made: Int, dropped: Int) {
        let renewals = await stack.emulator.notifications().filter { $0.notificationType == .didRenew }
        return (
            renewals.count,
            renewals.count { $0.attempts.isEmpty && notificationFaults.drops(uuid: $0.notificationUUID) }
        )
    }

    /// Whether `transaction` is its chain's latest when Apple signed a notification about it
    /// at `signedDate`: no other transaction of the chain was bought after it by then.
    static func isLatest(
        _ transaction: EmulatedTransaction, at signedDate: Int64, among transactions: some Sequence<EmulatedTransaction>
    ) -> Bool {
        !transactions.contains {
            $0.originalTransactionId == transaction.originalTransactionId
                && $0.transactionId != transaction.transactionId
                && $0.purchaseDate > transaction.purchaseDate && $0.purchaseDate <= signedDate
        }
    }

    /// The change Apple made with `notification`, and the state it should bring the
    /// ledger's entitlement to; `nil` for a notification that changes no state (renewal
    /// preferences, a refund of an earlier period). A REFUND of the chain's `latest`
    /// transaction brings it to `refunded`.
    static func change(
        _ notification: EmulatedNotification, transaction: EmulatedTransaction, holder: String, latest: Bool
    ) -> AppleChange? {
        let subtype = notification.subtype
        let state: EntitlementState
        var until: Date?
        switch notification.notificationType {
        case .subscribed, .didRenew, .oneTimeCharge:
            state = .active
            until = transaction.expiresDate.map(date)
        case .didChangeRenewalPref where subtype == .upgrade:
            state = .active
            until = transaction.expiresDate.map(date)
        case .didFailToRenew: state = subtype == .gracePeriod ? .gracePeriod : .billingRetry
        case .gracePeriodExpired: state = .billingRetry
        case .expired: state = .expired
        case .revoke: state = .revoked
        case .refund where latest: state = .refunded
        default: return nil
        }
        let subtypeName = subtype.map { "/\($0.rawValue)" } ?? ""
        return AppleChange(
            originalTransactionId: transaction.originalTransactionId, playerId: holder,
            action: notification.notificationType.rawValue + subtypeName, at: date(notification.signedDate),
            expectedState: state, expectedUntil: until)
    }

    /// What happened to `chain`, in time order, as lines: Apple's notifications about it
    /// (sent, or dropped by the faults) and the ledger's changes.
    private func chainHistory(
        of chain: String, transactions: [String: EmulatedTransaction], notifications: [EmulatedNotification],
        ledger: [EntitlementChange]
    ) -> [String] {
        var lines: [(Date, String)] = []
        for notification in notifications {
            guard let transactionId = notification.transactionId,
                transactions[transactionId]?.originalTransactionId == chain
            else { continue }
            let subtype = notification.subtype.map { "/\($0.rawValue)" } ?? ""
            let dropped = notification.attempts.isEmpty && notificationFaults.drops(uuid: notification.notificationUUID)
            let delivery =
                dropped ? "dropped" : "\(notification.attempts.count) attempts, delivered \(notification.isDelivered)"
            lines.append(
                (
                    Self.date(notification.signedDate),
                    "apple: \(notification.notificationType.rawValue)\(subtype) of \(transactionId), \(delivery)"
                ))
        }
        for change in ledger where change.originalTransactionId == chain {
            let until = change.until.map { "until \($0.ms)" } ?? "forever"
            let why = [
                change.sequence.map { "#\($0)" }, change.transactionId.map { "transaction \($0)" }, change.reason,
                change.signedAt.map { "signed \($0.ms)" },
            ]
            .compactMap { $0 }.joined(separator: ", ")
            lines.append(
                (
                    change.at,
                    "ledger: \(change.playerId) \(change.state.rawValue) \(until) \(change.productId ?? "") (\(why))"
                ))
        }
        return lines.sorted { $0.0 < $1.0 }.map { "\($0.0.ms) \($0.1)" }
    }

    /// Apple's word on a chain now: the emulator's own subscription state (status, grace
    /// period) for an auto-renewable subscription; for a purchase that does not renew,
    /// whether it stands.
    private func appleWord(chain: String, latest: EmulatedTransaction, at now: Date) async throws -> AppleEntitlement {
        guard latest.type == .autoRenewable else {
            let status =
                switch latest.refundState {
                case .refunded: "refunded"
                case .revoked: "revoked"
                case .none, .declined, .reversed: "purchased"
                }
            return AppleEntitlement(
                originalTransactionId: chain, status: status, entitles: !latest.isRevoked, entitledUntil: nil)
        }
        let status = try await stack.emulator.subscriptionStatus(chain, at: now)
        let entitles = status == .active || status == .billingGracePeriod
        var until = latest.expiresDate.map(Self.date)
        if status == .billingGracePeriod {
            until = try await stack.emulator.subscription(chain).gracePeriodExpiresDate.map(Self.date) ?? until
        }
        return AppleEntitlement(
            originalTransactionId: chain, status: Self.describe(status), entitles: entitles,
            entitledUntil: entitles ? until : nil)
    }

    private static func unlocksEntitlement(_ type: ProductType) -> Bool {
        type == .autoRenewable || type == .nonConsumable || type == .nonRenewing
    }

    private static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    private static func describe(_ status: SubscriptionStatus) -> String {
        switch status {
        case .active: "active"
        case .expired: "expired"
        case .billingRetry: "billing retry"
        case .billingGracePeriod: "grace period"
        case .revoked: "revoked"
        default: "status \(status.rawValue)"
        }
    }
}

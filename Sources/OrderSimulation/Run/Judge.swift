import AppStoreEmulator
import Foundation
import Ledger
import PlayEmulator
import StoreKeeperDev

/// Judges a quiesced run: the oracle's verdict with purchases still in flight set apart,
/// and the history of every offender.
struct Judge {
    let stack: DevStack
    /// Every phone of the run's players: Apple devices and Android phones.
    let devices: [any GamePhone]
    let book: PaymentBook
    let timeline: JournalTimeline
    let reconciler: ReconcilerDriver
    /// The notification faults the run applied (to tell a dropped notification from one
    /// still to be sent).
    let notificationFaults: NotificationFaults
    /// The subscription players' phones.
    let subscriberPhones: [SubscriberPhone]
    /// The subscription players, their second game accounts and their family members.
    let subscriberPlayers: [String]
    /// What the subscription players made Apple do.
    let subscriptions: SubscriptionLog

    /// Every player of the run: the phones' and the households', and the attacker.
    var players: [String] { devices.flatMap(\.players) + subscriberPlayers + [Attacker.playerId] }

    /// The oracle's verdict now, with every violation something still works on moved to
    /// ``IntegrityVerdict/inFlight``, and each violation's history as lines.
    func verdict() async throws -> (verdict: IntegrityVerdict, offenders: [SimulationReport.Offender]) {
        let store = try await stack.store
        let catalog = stack.configuration.catalog
        let charges = await stack.emulator.ledger()
        let familyPlayers = await subscriptions.familyPlayers
        var judged: [Charge] = []
        for transaction in charges {
            // A family member's share carries no token: it belongs to the member's player.
            let payer: String? =
                if let token = transaction.appAccountToken {
                    await book.payer(token: token)
                } else {
                    familyPlayers[transaction.deviceId]
                }
            judged.append(
                Charge(
                    transactionId: transaction.transactionId, productId: transaction.productId,
                    quantity: transaction.quantity, payer: payer, refunded: transaction.isRevoked))
        }
        let play = try stack.emulator.play.ledger().filter(\.paid)
        judged += try await playCharges(play)
        // Each charge's order token, Apple's then Google's (obfuscatedAccountId).
        let charged =
            charges.map { ($0.transactionId, $0.appAccountToken) } + play.map { ($0.orderId, $0.obfuscatedAccountId) }
        let ledger = try await store.deliveries(players: players)
        let raw = IntegrityOracle { catalog.product($0)?.grants }.judge(charges: judged, ledger: ledger)
        let (waits, uncharged) = await self.waits(
            charged: charged, offending: Set(raw.violations.map(\.transactionId)))
        let verdict = raw.separatingInFlight(waits: waits, uncharged: uncharged)
        let tokens = Dictionary(charged, uniquingKeysWith: { $1 })
        var offenders: [SimulationReport.Offender] = []
        for violation in verdict.violations {
            var history = await book.history(
                token: tokens[violation.transactionId] ?? nil, transactionId: violation.transactionId)
            for event in try await store.events(transactionId: violation.transactionId) {
                let detail = event.detail.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                history.append(
                    "server: \(event.type.rawValue) \(event.playerId ?? "-") \(detail.joined(separator: " "))")
            }
            offenders.append(
                SimulationReport.Offender(
                    kind: violation.kind, transactionId: violation.transactionId, detail: violation.detail,
                    history: history))
        }
        return (verdict, offenders)
    }

    /// Google Play's paid purchases (`paid`) as charges, each marked when Google refunded it
    /// for want of acknowledgement.
    private func playCharges(_ paid: [PlayLedgerEntry]) async throws -> [Charge] {
        let threeDay = try stack.emulator.play.threeDayRefunds()
        var charges: [Charge] = []
        for purchase in paid {
            let payer: String? =
                if let token = purchase.obfuscatedAccountId { await book.payer(token: token) } else { nil }
            charges.append(
                Charge(
                    transactionId: purchase.orderId, productId: purchase.productId, quantity: purchase.quantity,
                    payer: payer,
                    refunded: purchase.refunded, refundedUnacknowledged: threeDay.contains(purchase.orderId)))
        }
        return charges
    }

    /// What is still left, per transaction id, for the offending transactions; and the
    /// purchases with work left that nothing was charged for yet (pending Ask to Buy, pending
    /// at Google Play). `charged` holds each charge's transaction id and order token.
    private func waits(
        charged: [(transactionId: String, token: String?)], offending: Set<String>
    ) async -> (waits: [String: [PurchaseWait]], uncharged: [InFlightPurchase]) {
        let byToken = Dictionary(
            charged.compactMap { charge in charge.token.map { ($0, charge.transactionId) } },
            uniquingKeysWith: { first, _ in first })
        var waits: [String: [PurchaseWait]] = [:]
        var uncharged: [String: [PurchaseWait]] = [:]
        var deviceWaits: [DeviceWait] = []
        for device in devices { deviceWaits += await device.waits() }
        for phone in subscriberPhones { deviceWaits += await phone.waits() }
        for left in deviceWaits {
            if let transactionId = left.transactionId ?? left.token.flatMap({ byToken[$0] }) {
                waits[transactionId, default: []].append(left.wait)
            } else if [.askToBuy, .playPending].contains(left.wait.kind), let token = left.token {
                uncharged[token, default: []].append(left.wait)
            }
        }
        for notification in await stack.emulator.notifications() {
            guard let transactionId = notification.transactionId, offending.contains(transactionId),
                let wait = pendingDelivery(notification)
            else { continue }
            waits[transactionId, default: []].append(wait)
        }
        if let error = await reconciler.lastError {
            for transactionId in offending {
                waits[transactionId, default: []].append(PurchaseWait(.reconciler, "last pass failed: \(error)"))
            }
        }
        let pending = uncharged.sorted { $0.key < $1.key }.map {
            InFlightPurchase(
                transactionId: nil, appAccountToken: $0.key, wouldBe: nil, detail: "not charged yet", waits: $0.value)
        }
        return (waits.filter { offending.contains($0.key) }, pending)
    }

    /// A notification neither delivered nor out of attempts nor dropped by the faults.
    private func pendingDelivery(_ notification: EmulatedNotification) -> PurchaseWait? {
        let maximum = NotificationRetrySchedule.apple.maximumAttempts
        guard !notification.isDelivered, notification.attempts.count < maximum,
            !(notification.attempts.isEmpty && notificationFaults.drops(uuid: notification.notificationUUID))
        else { return nil }
        let last = notification.attempts.last.map { ", last \($0.sendAttemptResult)" } ?? ""
        return PurchaseWait(
            .notification,
            "\(notification.notificationType.rawValue) \(notification.notificationUUID): "
                + "\(notification.attempts.count) of \(maximum) attempts\(last)")
    }

    /// The full history of each offending and in-flight purchase, and of each purchase that
    /// was in flight at an earlier judgement and settled since (`resolved`).
    func histories(of verdict: IntegrityVerdict, resolved: [InFlightPurchase]) async throws -> [OffenderHistory] {
        let store = try await stack.store
        let charges = Dictionary(
            await stack.emulator.ledger().map { ($0.transactionId, $0) }, uniquingKeysWith: { $1 })
        let notifications = Dictionary(grouping: await stack.emulator.notifications()) { $0.transactionId ?? "" }
        // A Google Play order's token, for its notes and journal.
        let playTokens = Dictionary(
            try stack.emulator.play.ledger().compactMap { purchase in
                purchase.obfuscatedAccountId.map { (purchase.orderId, $0) }
            }, uniquingKeysWith: { $1 })
        var histories: [OffenderHistory] = []
        let entries =
            verdict.violations.map {
                ($0.transactionId as String?, String?.none, $0.kind.rawValue, $0.detail, [PurchaseWait]())
            }
            + verdict.inFlight.map { ($0.transactionId, $0.appAccountToken, "inFlight", $0.detail, $0.waits) }
            + resolved.map { ($0.transactionId, $0.appAccountToken, "resolvedInFlight", $0.detail, $0.waits) }
        for (transactionId, orderToken, kind, detail, waits) in entries {
            let charge = transactionId.flatMap { charges[$0] }
            let token = charge?.appAccountToken ?? orderToken ?? transactionId.flatMap { playTokens[$0] }
            var events: [HistoryEvent] = []
            if let transactionId { events = try await store.events(transactionId: transactionId) }
            histories.append(
                OffenderHistory(
                    transactionId: transactionId, verdict: kind, detail: detail, waits: waits, charge: charge,
                    notes: await book.history(token: token, transactionId: transactionId ?? ""),
                    journal: await timeline.transitions(transactionId: transactionId, token: token),
                    serverEvents: events,
                    notifications: (transactionId.flatMap { notifications[$0] } ?? []).map(history)))
        }
        return histories
    }

    private func history(_ notification: EmulatedNotification) -> NotificationHistory {
        let subtype = notification.subtype.map { "/\($0.rawValue)" } ?? ""
        return NotificationHistory(
            uuid: notification.notificationUUID, type: notification.notificationType.rawValue + subtype,
            signedDate: notification.signedDate,
            droppedByFault: notification.attempts.isEmpty
                && notificationFaults.drops(uuid: notification.notificationUUID),
            attempts: notification.attempts)
    }
}

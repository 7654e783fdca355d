import AppStoreEmulator
import Foundation
import PurchaseSDK

/// One subscription player and the people around them: the subscriber's phone (where a
/// second game account also signs in), their second phone on the same Apple account, and
/// a family member's phone. The subscriber buys vip.monthly, levelpack1 and seasonpass
/// through the SDK, then lives a number of steps, a subscription period each (periods are
/// scaled down, ``Simulation/subscriptionTimeScale``): Apple's renewal clock renews the
/// subscription at each period's end, or fails to while the account's billing fails
/// (grace period, billing retry, recovery, expiry); the subscriber upgrades, downgrades,
/// cancels and resubscribes; Apple refunds a period; the subscription is shared with the
/// family member and the sharing stopped; purchases are restored on the second phone and
/// by the second game account. At the end the subscriber turns renewal off and the chain
/// expires. Every decision comes from the seed.
actor SubscriptionHousehold {
    static let monthly = "vip.monthly"
    static let premium = "vip.premium"

    let player: String
    let secondAccount: String
    let familyPlayer: String
    let phones: [SubscriberPhone]
    private let main: SubscriberPhone
    private let second: SubscriberPhone
    private let family: SubscriberPhone
    private let appleAccount: String
    private let world: SimulationWorld
    private let log: SubscriptionLog
    /// A subscription period in real time.
    private let period: Duration
    private var dice: FaultDice
    private var chain: String?
    /// While the account's billing fails: whether the subscriber fixes it within the grace
    /// period, or else during billing retry.
    private var billingFix: (inGrace: Bool, inRetry: Bool)?
    /// The family member's FAMILY_SHARED transaction, while shared.
    private var sharedTransaction: String?
    private var revokesShare = false

    init(index: Int, world: SimulationWorld, log: SubscriptionLog, period: Duration) {
        player = "subscriber-\(index)"
        secondAccount = "subscriber-\(index)-alt"
        familyPlayer = "family-\(index)"
        appleAccount = "apple-subscriber-\(index)"
        let salt = UInt64(index) << 2
        main = SubscriberPhone(
            id: "subscriber-device-\(index)", index: index, salt: salt, player: player, world: world)
        second = SubscriberPhone(
            id: "subscriber-device-\(index)-b", index: index + 1, salt: salt | 1, player: player, world: world)
        family = SubscriberPhone(
            id: "family-device-\(index)", index: index + 2, salt: salt | 2, player: familyPlayer, world: world)
        phones = [main, second, family]
        self.world = world
        self.log = log
        self.period = period
        dice = FaultDice(rates: world.rates, seed: world.seed, salt: 0x5B5C_1000 | UInt64(index))
    }

    /// Every player of the household.
    nonisolated var players: [String] { [player, secondAccount, familyPlayer] }

    /// Buys, then lives `steps` steps, each until the end of the subscription's period.
    func live(steps: Int) async {
        await main.launch(appleAccount: appleAccount)
        await second.launch(appleAccount: appleAccount)
        await family.launch(appleAccount: "apple-\(familyPlayer)")
        await log.recordFamilyMember(familyPlayer, deviceId: family.id)
        await subscribe()
        for productId in ["levelpack1", "seasonpass"] { _ = await buy(productId) }
        for _ in 0..<steps {
            await step()
            await waitForPeriodEnd()
        }
        await windDown()
    }

    /// Ends the subscription so that the App Store stands still when the run is judged
    /// (a renewal at every period's end would always leave one the ledger is still
    /// catching up with): billing works again, renewal off, and Apple expires the chain at
    /// its period's end (a few periods at most).
    private func windDown() async {
        billingFix = nil
        await setBillingFails(false)
        guard let chain else { return }
        _ = try? await world.emulator.setAutoRenew(deviceId: main.id, originalTransactionId: chain, enabled: false)
        for _ in 0..<6 {
            guard let subscription = try? await world.emulator.subscription(chain),
                let latest = await transaction(subscription.latestTransactionId)
            else { return }
            if subscription.ended || latest.isRevoked { return }
            // A chain in billing retry recovers first, then expires at its new period's end.
            if subscription.billing == .ok && subscription.autoRenewEnabled {
                _ = try? await world.emulator.setAutoRenew(
                    deviceId: main.id, originalTransactionId: chain, enabled: false)
            }
            await waitForPeriodEnd()
        }
    }

    // MARK: One step

    private func step() async {
        guard let chain, let subscription = try? await world.emulator.subscription(chain),
            let latest = await transaction(subscription.latestTransactionId), !subscription.ended, !latest.isRevoked
        else {
            billingFix = nil
            await setBillingFails(false)
            await subscribe()
            return
        }
        if let fix = billingFix {
            switch subscription.billing {
            case .gracePeriod where fix.inGrace, .billingRetry where fix.inRetry:
                billingFix = nil
                await setBillingFails(false)
            case .ok, .gracePeriod, .billingRetry: break
            }
            return
        }
        guard subscription.autoRenewEnabled else { return }
        if dice.strikes(.restoreOnSecondDevice) {
            await world.tally.count(.restoreOnSecondDevice)
            await second.restore()
        }
        if dice.strikes(.restoreBySecondAccount) {
            await world.tally.count(.restoreBySecondAccount)
            await main.signIn(secondAccount)
            await main.restore()
            await main.signIn(player)
        }
        await shareOrRevoke(chain)
        if dice.strikes(.periodRefund) {
            await refundPeriod(chain, latest: latest)
            return
        }
        if subscription.productId == Self.monthly && dice.strikes(.subscriptionUpgrade) {
            if (try? await world.emulator.changeSubscription(
                deviceId: main.id, originalTransactionId: chain, productId: Self.premium)) != nil
            {
                await world.tally.count(.subscriptionUpgrade)
            }
            return
        }
        if subscription.autoRenewProductId == Self.premium && dice.chance(0.3) {
            if (try? await world.emulator.changeSubscription(
                deviceId: main.id, originalTransactionId: chain, productId: Self.monthly)) != nil
            {
                await log.count { $0.downgrades += 1 }
            }
        }
        if dice.chance(0.1) {
            // Renewal off: Apple expires the subscription at the period's end (VOLUNTARY).
            if (try? await world.emulator.setAutoRenew(deviceId: main.id, originalTransactionId: chain, enabled: false))
                != nil
            {
                await log.count { $0.cancellations += 1 }
            }
            return
        }
        if dice.strikes(.billingFailure) {
            // The renewal at the period's end fails: a grace period, then billing retry.
            await world.tally.count(.billingFailure)
            let inGrace = dice.strikes(.gracePeriod)
            if inGrace { await world.tally.count(.gracePeriod) }
            billingFix = (inGrace, dice.chance(0.5))
            await setBillingFails(true)
        }
    }

    /// Waits until just after the latest period's end (a renewal, failure or expiry is
    /// due then), or a fraction of a period while none is due.
    private func waitForPeriodEnd() async {
        var wait = period * 0.4
        if let chain, let subscription = try? await world.emulator.subscription(chain),
            let latest = await transaction(subscription.latestTransactionId), let expires = latest.expiresDate
        {
            let left = Double(expires) / 1000 - Date().timeIntervalSince1970
            if left > 0 { wait = .milliseconds(Int64(left * 1000)) + period * 0.1 }
        }
        try? await Task.sleep(for: min(wait, period * 2))
    }

    // MARK: Apple's side

    private func setBillingFails(_ fails: Bool) async {
        _ = try? await world.emulator.updateDevice(main.id, settings: DeviceSettings(billingFails: fails))
    }

    /// Apple refunds one standing period of the chain: the latest (the chain is revoked),
    /// or an earlier one.
    private func refundPeriod(_ chain: String, latest: EmulatedTransaction) async {
        let standing = await world.emulator.ledger().filter { $0.originalTransactionId == chain && !$0.isRevoked }
        guard !standing.isEmpty else { return }
        let target = dice.chance(0.6) ? latest : dice.pick(standing)
        guard (try? await world.emulator.refund(transactionId: target.transactionId)) != nil else { return }
        await world.tally.count(.periodRefund)
        await world.book.note("Apple refunds a period of \(chain)", about: target.transactionId)
    }

    /// Shares the chain with the family member (once in a while), or stops sharing it.
    private func shareOrRevoke(_ chain: String) async {
        if let shared = sharedTransaction {
            guard revokesShare, (try? await world.emulator.familyRevoke(transactionId: shared)) != nil else { return }
            await world.tally.count(.familyRevoke)
            sharedTransaction = nil
            revokesShare = false
            return
        }
        guard dice.chance(0.3) else { return }
        let before = Set(
            await world.emulator.ledger().lazy.filter { $0.deviceId == self.family.id }.map(\.transactionId))
        guard (try? await world.emulator.familyShare(originalTransactionId: chain, memberDeviceId: family.id)) != nil
        else { return }
        guard
            let shared = await world.emulator.ledger().last(where: {
                $0.deviceId == self.family.id && !before.contains($0.transactionId)
            })
        else { return }
        sharedTransaction = shared.transactionId
        revokesShare = dice.strikes(.familyRevoke)
        await log.count { $0.familyShares += 1 }
    }

    // MARK: The subscriber's purchases

    /// Buys vip.monthly (a first purchase, or a resubscription of an expired chain).
    private func subscribe() async {
        guard let transaction = await buy(Self.monthly) else { return }
        chain = transaction.originalTransactionId
        sharedTransaction = nil
    }

    /// Buys `productId` on the subscriber's phone; Apple's transaction, when charged.
    private func buy(_ productId: String) async -> EmulatedTransaction? {
        let outcome = await main.purchase(productId)
        let label =
            switch outcome {
            case .delivered?: "delivered"
            case .pending?: "pending"
            case .cancelled?: "cancelled"
            case .failed(let record)?:
                if case .failed(let reason) = record.state { "failed:\(reason)" } else { "failed" }
            case nil: "app_not_running"
            }
        await log.count {
            $0.purchases += 1
            $0.outcomes[label, default: 0] += 1
        }
        guard let transactionId = outcome?.record.transactionId else { return nil }
        return await transaction(transactionId)
    }

    private func transaction(_ transactionId: String) async -> EmulatedTransaction? {
        await world.emulator.ledger().first { $0.transactionId == transactionId }
    }

    /// Ends the faults and waits until every phone has nothing left to do.
    func quiesce(deadline: ContinuousClock.Instant) async {
        await main.signIn(player)
        for phone in phones { await phone.quiesce(deadline: deadline) }
    }
}

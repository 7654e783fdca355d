import AppStoreModel
import Foundation

/// The renewal clock: what Apple does by itself when a subscription period or a grace
/// period ends.
extension AppStoreEmulator {
    /// Apple's billing retry period: 60 days (scaled by `subscriptionTimeScale`).
    static let billingRetrySeconds: Int64 = 60 * 86_400

    /// Moves every purchased subscription chain whose time has come at `now`:
    ///
    /// - period ended, renewal on, the account's billing works → renewed (DID_RENEW), as
    ///   many periods as have ended;
    /// - period ended, renewal on, the account's billing fails (``EmulatedDevice/billingFails``)
    ///   → DID_FAIL_TO_RENEW (GRACE_PERIOD when the product has a grace period);
    /// - period ended, renewal off → EXPIRED VOLUNTARY;
    /// - in grace period or billing retry and billing works again → recovered (DID_RENEW
    ///   BILLING_RECOVERY);
    /// - grace period over → GRACE_PERIOD_EXPIRED;
    /// - billing retry for 60 days after the period's end → EXPIRED BILLING_RETRY.
    ///
    /// The emulator's own clock calls it with the current time; tests call it with any time.
    ///
    /// - Parameter limit: The most actions to take; what is left stays due for the next call
    ///   (a far `now` on a tiny time scale is then done in bounded steps).
    /// A chain whose action fails (its renewal product is no longer in the catalog, the
    /// journal cannot be written) is left as it is for this call, and the other chains
    /// still move.
    ///
    /// - Returns: How many actions it took.
    /// - Throws: ``EmulatorError`` `invalid_now` (400) for a time before 1970 or after 9999.
    @discardableResult
    public func processDueSubscriptions(now: Date = Date(), limit: Int = 10_000) async throws -> Int {
        let seconds = now.timeIntervalSince1970
        guard seconds.isFinite, (0...Self.latestNow).contains(seconds) else {
            throw EmulatorError("invalid_now", "now must be between 1970 and 9999, not \(seconds) s since 1970")
        }
        let nowMilliseconds = Int64(seconds * 1000)
        var actions = 0
        for id in state.subscriptionOrder {
            // A chain that cannot move (its renewal product left the catalog, a full disk)
            // is skipped for this pass; the others still move.
            do {
                while actions < limit, try await step(id, at: nowMilliseconds) { actions += 1 }
            } catch {
                continue
            }
        }
        return actions
    }

    /// The last millisecond of the year 9999, in seconds since 1970.
    static let latestNow: TimeInterval = 253_402_300_799.999

    /// Takes the one action due for chain `id` at `now`; false when none is due.
    private func step(_ id: String, at now: Int64) async throws -> Bool {
        guard let chain = state.subscriptions[id], chain.familySharedFrom == nil, !chain.ended,
            let latest = state.transactions[chain.latestTransactionId], !latest.isRevoked,
            let expiresDate = latest.expiresDate
        else { return false }
        let billingFails = state.device(chain.deviceId).billingFails
        switch chain.billing {
        case .ok:
            guard expiresDate <= now else { return false }
            if !chain.autoRenewEnabled {
                try await expireSubscription(originalTransactionId: id)
            } else if billingFails {
                let grace = catalog.product(chain.autoRenewProductId)?.gracePeriodSeconds != nil
                try await failRenewal(originalTransactionId: id, gracePeriod: grace)
            } else {
                try await renewSubscription(originalTransactionId: id)
            }
        case .gracePeriod, .billingRetry:
            if !billingFails {
                try await recoverSubscription(id, at: now)
            } else if chain.billing == .gracePeriod, (chain.gracePeriodExpiresDate ?? 0) <= now {
                try await expireGracePeriod(originalTransactionId: id)
            } else if try date(expiresDate, plusScaled: Self.billingRetrySeconds) <= now {
                try await expireSubscription(originalTransactionId: id)
            } else {
                return false
            }
        }
        return true
    }

    /// How often the emulator's clock looks for due subscriptions: a twentieth of the
    /// shortest scaled period, between 50 ms and a minute.
    nonisolated var subscriptionClockInterval: Duration {
        let shortest =
            catalog.products.filter { $0.type == .autoRenewable }
            .map { Double($0.periodSeconds) * configuration.subscriptionTimeScale }.min() ?? 60
        return .milliseconds(Int64(min(60, max(0.05, shortest / 20)) * 1000))
    }
}

/// Runs ``AppStoreEmulator/processDueSubscriptions(now:)`` every interval until cancelled,
/// holding the emulator weakly so it can go away.
struct SubscriptionClock {
    /// Starts the clock.
    static func start(_ emulator: AppStoreEmulator) -> Task<Void, Never> {
        let interval = emulator.subscriptionClockInterval
        return Task { [weak emulator] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let emulator, !Task.isCancelled else { return }
                // A failed step (a full disk) is retried at the next tick.
                _ = try? await emulator.processDueSubscriptions()
            }
        }
    }
}

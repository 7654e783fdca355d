import AppStoreEmulator
import Foundation
import PurchaseSDK

/// What every simulated device shares: the App Store, the server's address, the ground
/// truth, the fault counts, the server restarts and the attacker.
struct SimulationWorld: Sendable {
    let emulator: AppStoreEmulator
    /// Where each server instance answers; device `i` talks to instance `i % count`.
    let serverURLs: [URL]
    /// Each phone's own connections to the server.
    let phones: PhoneConnections
    let playerSecret: String
    let directory: URL
    let rates: FaultRates
    let seed: UInt64
    /// Whether devices take turns, one purchase at a time (``SimulationConfiguration/serial``).
    let serial: Bool
    let book: PaymentBook
    let tally: FaultTally
    /// Every state the devices' journals write.
    let timeline: JournalTimeline
    let chaos: ServerChaos
    let attacker: Attacker
    /// The consumables the devices buy.
    let products: [String]
    /// Where the phones' StoreKit reaches the emulator over HTTP (``PhoneStore/storeKit``);
    /// `nil`: the phones call the emulator in process.
    let appStore: URL?
    /// Where the Android phones' Play store client reaches the emulator over HTTP (a port
    /// no server restart takes down); `nil` when the run has no Android players.
    let playStore: URL?
    /// The pipeline's backoff: short, so a run does not wait on real-time retries; orders
    /// outlast a server restart (a few seconds of retries) before giving up.
    let retry = RetryPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(400), orderAttempts: 20)
}

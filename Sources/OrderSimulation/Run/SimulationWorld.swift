import AppStoreEmulator
import AsyncHTTPClient
import Foundation
import PurchaseSDK

/// What every simulated device shares: the App Store, the server's address, the ground
/// truth, the fault counts, the server restarts and the attacker.
struct SimulationWorld: Sendable {
    let emulator: AppStoreEmulator
    let serverURL: URL
    /// The devices' connections to the server.
    let http: HTTPClient
    let playerSecret: String
    let directory: URL
    let rates: FaultRates
    let seed: UInt64
    let book: PaymentBook
    let tally: FaultTally
    let chaos: ServerChaos
    let attacker: Attacker
    /// The consumables the devices buy.
    let products: [String]
    /// The pipeline's backoff: short, so a run does not wait on real-time retries; orders
    /// outlast a server restart (a few seconds of retries) before giving up.
    let retry = RetryPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(400), orderAttempts: 20)
}

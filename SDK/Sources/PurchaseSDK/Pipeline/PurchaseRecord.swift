import Foundation

/// One order as the journal keeps it: who ordered what, the server's order, Apple's
/// transaction once charged, and the server's answer.
public struct PurchaseRecord: Codable, Hashable, Sendable, Identifiable {
    /// Where the purchase came from.
    public enum Origin: String, Codable, Hashable, Sendable {
        /// The game called ``PurchasePipeline/purchase(productId:quantity:)``.
        case game
        /// The customer started it in the App Store (a promoted purchase).
        case promoted
        /// The store listed a transaction no journal entry knew (a lost journal, another
        /// device): delivered to the player signed in when it appeared.
        case store
        /// ``PurchasePipeline/restore()`` reported a transaction the store still listed as
        /// unfinished and no order knew; the record carries it to its finish: `delivered`
        /// then `finished` when the server delivered it to this player, `failed` (reason
        /// `kept_by_other_player` or `refused`) when another player keeps it.
        case restore
    }

    /// The journal's own id for the order.
    public var id: String
    /// The player who ordered: the goods go to this player, whoever is signed in later.
    public var playerId: String
    /// The product ordered.
    public var productId: String
    /// How many.
    public var quantity: Int
    /// Where the purchase came from.
    public var origin: Origin
    /// The state.
    public var state: PurchaseState
    /// The server's order id, once created.
    public var orderId: String?
    /// The order's app account token, given to the store.
    public var appAccountToken: String?
    /// Apple's transaction id, once charged.
    public var transactionId: String?
    /// The signed transaction (StoreKit 2), reported to the server.
    public var signedTransaction: String?
    /// The Google Play purchase, reported to the server; `nil` for Apple's transactions
    /// and in journals written before Google Play.
    public var googlePlay: GooglePlayPurchase?
    /// The server's acknowledgement, once delivered.
    public var delivery: ServerDelivery?
    /// Whether the store was told to finish the transaction, or no longer lists it because
    /// the server finished it (``finishReason``).
    public var transactionFinished: Bool
    /// Why the transaction counts as finished, once it does; `nil` in journals written
    /// before reasons were kept.
    public var finishReason: FinishReason?
    /// Failed attempts to reach the server for this order so far.
    public var attempts: Int
    /// When the record was created.
    public var createdAt: Date
    /// When the record last changed.
    public var updatedAt: Date

    /// Creates a record in state ``PurchaseState/created``.
    public init(
        id: String = UUID().uuidString.lowercased(), playerId: String, productId: String, quantity: Int = 1,
        origin: Origin = .game, state: PurchaseState = .created, now: Date
    ) {
        self.id = id
        self.playerId = playerId
        self.productId = productId
        self.quantity = quantity
        self.origin = origin
        self.state = state
        transactionFinished = false
        attempts = 0
        createdAt = now
        updatedAt = now
    }

    /// Whether the server has yet to acknowledge this order's paid transaction.
    public var awaitsDelivery: Bool {
        switch state {
        case .purchased, .reported, .pending: true
        case .created, .purchasing, .delivered, .finished, .failed, .cancelled: false
        }
    }

    /// Counts one more failed attempt to reach the server. The count stops at `Int.max`:
    /// a journal read back may hold any count, and counting must not crash the app.
    mutating func countFailedAttempt() {
        if attempts < .max { attempts += 1 }
    }

    /// Binds the store's transaction to this order.
    mutating func bind(_ transaction: StoreTransaction) {
        transactionId = transaction.transactionId
        signedTransaction = transaction.signedTransaction ?? signedTransaction
        googlePlay = transaction.googlePlay ?? googlePlay
        if appAccountToken == nil { appAccountToken = transaction.appAccountToken }
    }
}

import AppStoreModel
import Foundation
import Ledger
import Logging

/// The one path every source takes to deliver a verified transaction: bind it to a player,
/// apply the policy, and call the ledger's exactly-once ``LedgerStore/deliver(_:)``.
///
/// Binding: a transaction whose original transaction already backs an entitlement goes to
/// that entitlement's holder (a renewal, an upgrade in the same chain, whoever a restore
/// moved it to); otherwise the transaction's `appAccountToken` finds the order, and the
/// order's player receives the goods; a transaction without a usable token is bound by the order the
/// reporting player names, or else goes to that player, flagged `unbound`; support binds
/// one to the player it names through an order made for the binding, whose token support's
/// lookup then sets at Apple. A claim on a transaction bound to (or already delivered to)
/// another player is refused and recorded.
struct PurchaseDeliverer: Sendable {
    let store: any LedgerStore
    let catalog: ProductCatalog
    let deploymentEnvironment: AppStoreEnvironment
    /// Finishes at Apple what the server delivered without the app; `nil` when finishing is
    /// off (``ServerConfiguration/finishesTransactionsAtApple``).
    let finisher: TransactionFinisher?
    let metrics: ServerMetrics
    let logger: Logger

    /// Delivers `transaction` for `claimant`, or explains why not. A product that unlocks an
    /// entitlement sets it from the transaction and `evidence` (Apple's renewal info and
    /// status, when the caller has them).
    ///
    /// - Throws: ``DeliveryRefusal`` (recorded in the history), or the ledger's error when
    ///   the database failed (nothing was written; retry).
    func deliver(
        _ transaction: VerifiedTransaction, source: DeliverySource, claimant: DeliveryClaimant,
        evidence: SubscriptionEvidence? = nil
    ) async throws -> DeliveryResult {
        do {
            let result = try await checkAndDeliver(
                transaction, source: source, claimant: claimant, evidence: evidence)
            try await closeReplaced(by: transaction)
            recordDelivery(result, source: source)
            return result
        } catch let refusal as DeliveryRefusal {
            try await record(refusal, playerId: claimant.reportingPlayer, source: source, store: transaction.store)
            throw refusal
        }
    }

    /// Delivers what `playerId` reported, with the player's balances when the ledger read
    /// them in the delivery's own transaction: a new transaction whose token names the
    /// player's unfulfilled order `orderId` for its product is delivered by
    /// ``LedgerStore/deliverByOrder(_:appAccountToken:)`` (one round trip); anything else,
    /// or anything that call declines, goes the whole way of
    /// ``deliver(_:source:claimant:evidence:)`` (balances `nil`).
    func deliverReport(
        _ transaction: VerifiedTransaction, source: DeliverySource, playerId: String, orderId: String?
    ) async throws -> (result: DeliveryResult, balances: [String: Int64]?) {
        if let orderId, let token = transaction.appAccountToken, transaction.revocationDate == nil,
            let product = catalog.product(transaction.productId), product.entitlement == nil,
            let grants = product.grants(quantity: transaction.quantity)
        {
            let delivery = Delivery(
                store: transaction.store,
                transactionId: transaction.transactionId,
                originalTransactionId: transaction.originalTransactionId,
                playerId: playerId,
                orderId: orderId,
                productId: transaction.productId,
                quantity: transaction.quantity,
                environment: transaction.environment,
                source: source,
                flags: environmentFlags(transaction),
                grants: grants,
                purchaseDate: transaction.purchaseDate
            )
            if case .delivered(let purchase, let balances) = try await store.deliverByOrder(
                delivery, appAccountToken: token)
            {
                let result = DeliveryResult.delivered(purchase)
                recordDelivery(result, source: source)
                return (result, balances)
            }
        }
        let result = try await deliver(transaction, source: source, claimant: .player(playerId, orderId: orderId))
        return (result, nil)
    }

    /// Counts a delivery (or a repeat) and logs a first one.
    private func recordDelivery(_ result: DeliveryResult, source: DeliverySource) {
        metrics.recordDelivery(source: source, first: result.isFirstDelivery)
        guard result.isFirstDelivery else { return }
        logger.info(
            "delivered",
            metadata: [
                "transactionId": .string(LoggedIdentifier.text(result.purchase.transactionId)),
                "source": .string(source.rawValue),
                "playerId": .string(result.purchase.playerId),
            ])
    }

    /// The flags the deployment puts on any transaction: a sandbox purchase reaching a
    /// production server is flagged ``PurchaseFlag/sandboxInProduction``.
    private func environmentFlags(_ transaction: VerifiedTransaction) -> Set<String> {
        PurchaseEnvironment(apple: deploymentEnvironment) == .production && transaction.environment != .production
            ? [PurchaseFlag.sandboxInProduction] : []
    }

    /// Finishes `purchase` at Apple if the server owes it (``TransactionFinisher``): call it
    /// once a delivery by a notification or the reconciler committed.
    ///
    /// - Throws: ``ServerError/appleUnavailable(_:)`` when Finish Transaction failed for a
    ///   while (recorded; leave the notification unprocessed so it is tried again).
    func finishAtApple(_ purchase: Purchase, deliveredBy source: DeliverySource) async throws {
        try await finisher?.finishIfOwed(purchase, deliveredBy: source)
    }

    /// Appends a refusal of a report about `store`'s purchase to the history and counts it;
    /// pending answers are not recorded.
    func record(_ refusal: DeliveryRefusal, playerId: String?, source: DeliverySource, store: Store) async throws {
        metrics.recordRefusal(refusal)
        guard refusal.kind == .rejected else { return }
        logger.notice(
            "purchase refused",
            metadata: [
                "reason": .string(refusal.reason),
                "transactionId": .string(refusal.transactionId.map(LoggedIdentifier.text) ?? "-"),
                "source": .string(source.rawValue),
            ])
        let type: HistoryEventType =
            refusal.reason == HistoryEventType.transactionBelongsToOtherPlayer.rawValue
            ? .transactionBelongsToOtherPlayer : .purchaseRejected
        try await self.store.appendEvent(
            HistoryEvent(
                type: type, playerId: playerId, orderId: refusal.orderId, transactionId: refusal.transactionId,
                store: store,
                detail: ["reason": refusal.reason, "message": refusal.message, "source": source.rawValue],
                createdAt: Date()))
    }

    /// Refuses what cannot be delivered (revoked, not in the catalog, a bad quantity),
    /// answers a repeat with its delivery, then binds and delivers.
    private func checkAndDeliver(
        _ transaction: VerifiedTransaction, source: DeliverySource, claimant: DeliveryClaimant,
        evidence: SubscriptionEvidence?
    ) async throws -> DeliveryResult {
        let transactionId = transaction.transactionId
        if transaction.revocationDate != nil {
            throw DeliveryRefusal.rejected(
                "transaction_revoked", "Apple refunded or revoked transaction \(transactionId)",
                transactionId: transactionId)
        }
        guard let product = catalog.product(transaction.productId) else {
            throw DeliveryRefusal.rejected(
                "unknown_product", "product \(transaction.productId) is not in the catalog",
                transactionId: transactionId)
        }
        guard let grants = product.grants(quantity: transaction.quantity) else {
            throw DeliveryRefusal.rejected(
                "invalid_quantity",
                "quantity \(transaction.quantity) is not 1 to \(CatalogProduct.maximumQuantity), or its grants overflow",
                transactionId: transactionId)
        }
        if let existing = try await store.purchase(store: transaction.store, transactionId: transactionId) {
            try checkClaim(on: existing, by: claimant)
            return .alreadyDelivered(existing)
        }
        // A transfer may commit between the read of the chain's holder and the delivery's
        // transaction, which then refuses it (nothing written): bind again.
        var attempt = 1
        while true {
            do {
                return try await bindAndDeliver(
                    transaction, product: product, grants: grants, source: source, claimant: claimant,
                    evidence: evidence)
            } catch LedgerError.chainHolderChanged where attempt < Self.bindingAttempts {
                attempt += 1
            } catch LedgerError.chainHolderChanged(let originalTransactionId) {
                throw ServerError.storageUnavailable(
                    "the holder of \(originalTransactionId) kept changing while binding; try again")
            }
        }
    }

    /// How many bindings a delivery gets in all (the first included) while its chain's
    /// holder keeps changing under it.
    static let bindingAttempts = 3

    /// Binds `transaction` to its player and delivers it once.
    private func bindAndDeliver(
        _ transaction: VerifiedTransaction, product: CatalogProduct, grants: Grants, source: DeliverySource,
        claimant: DeliveryClaimant, evidence: SubscriptionEvidence?
    ) async throws -> DeliveryResult {
        let transactionId = transaction.transactionId
        // Only a product that unlocks an entitlement has a chain holder: a consumable's
        // delivery (the hot path) reads nothing more than before.
        let existing =
            product.entitlement == nil
            ? nil
            : try await store.entitlement(
                store: transaction.store, originalTransactionId: transaction.originalTransactionId)
        let replaced = try await replacedEntitlement(of: transaction, product: product, existing: existing)
        let binding = try await bind(transaction, claimant: claimant, holder: existing ?? replaced)
        let flags = binding.flags.union(environmentFlags(transaction))
        let delivery = Delivery(
            store: transaction.store,
            transactionId: transactionId,
            originalTransactionId: transaction.originalTransactionId,
            playerId: binding.playerId,
            orderId: binding.order?.orderId,
            productId: transaction.productId,
            quantity: transaction.quantity,
            environment: transaction.environment,
            source: source,
            flags: flags,
            grants: grants,
            purchaseDate: transaction.purchaseDate,
            entitlement: entitlementGrant(for: transaction, product: product, evidence: evidence),
            boundByHolder: product.entitlement == nil ? nil : existing.map { .player($0.playerId) } ?? .nobody
        )
        let result: DeliveryResult
        do {
            result = try await store.deliver(delivery)
        } catch LedgerError.transactionIdOfOtherStore {
            throw DeliveryRefusal.rejected(
                "transaction_id_of_other_store",
                "transaction id \(transactionId) is already recorded for another store's purchase",
                transactionId: transactionId)
        } catch LedgerError.transactionRevoked {
            // A device may still hold the transaction as signed before the refund, which
            // carries no revocation date; the ledger decided in the delivery's transaction.
            throw DeliveryRefusal.rejected(
                "transaction_revoked",
                "Apple notified a refund of transaction \(transactionId) before it was delivered",
                transactionId: transactionId)
        }
        try checkClaim(on: result.purchase, by: claimant)
        if let previous = binding.takesChainFrom, result.isFirstDelivery {
            _ = try await store.transferEntitlement(
                store: transaction.store, originalTransactionId: transaction.originalTransactionId,
                to: binding.playerId,
                reason: "paid_by_player", actor: nil)
            logger.notice(
                "a chain moved to the player who paid its new period",
                metadata: [
                    "originalTransactionId": .string(LoggedIdentifier.text(transaction.originalTransactionId)),
                    "from": .string(previous), "to": .string(binding.playerId),
                ])
        }
        return result
    }

    /// The entitlement of the chain `transaction` replaces
    /// (``VerifiedTransaction/linkedOriginalTransactionId``, Google's `linkedPurchaseToken`),
    /// when the transaction's own chain has none yet and the ledger knows the replaced one:
    /// its holder is the new chain's holder, bound as a renewal of the same chain is.
    private func replacedEntitlement(
        of transaction: VerifiedTransaction, product: CatalogProduct, existing: Entitlement?
    ) async throws -> Entitlement? {
        guard existing == nil, product.entitlement != nil, let linked = transaction.linkedOriginalTransactionId
        else { return nil }
        return try await store.entitlement(store: transaction.store, originalTransactionId: linked)
    }

    /// Closes the entitlement of the chain `transaction` replaces
    /// (``VerifiedTransaction/linkedOriginalTransactionId``) once `transaction` is
    /// delivered: expired at the replacement's purchase, not renewing, so the chain
    /// entitles through its new link only. Called after every delivery of the new link,
    /// repeats included, so a close that a crash cut off is done by the next word about
    /// the new link; an entitlement already closed is left alone. The server concludes it
    /// (no store dates it), so it is dated no older than what the ledger recorded of the
    /// replaced link; a late word from the store about the replaced link (which reads it
    /// as ended) cannot open it again.
    private func closeReplaced(by transaction: VerifiedTransaction) async throws {
        guard let linked = transaction.linkedOriginalTransactionId,
            catalog.product(transaction.productId)?.entitlement != nil,
            let replaced = try await store.entitlement(store: transaction.store, originalTransactionId: linked),
            replaced.state != .expired || replaced.autoRenew != false
        else { return }
        _ = try await store.updateEntitlement(
            EntitlementUpdate(
                store: replaced.store, originalTransactionId: replaced.originalTransactionId, state: .expired,
                until: min(replaced.until ?? transaction.purchaseDate, transaction.purchaseDate), setsUntil: true,
                autoRenew: false, signedAt: max(replaced.signedAt, transaction.purchaseDate),
                reason: "replaced_by_linked_purchase"))
    }

    /// Refuses a player's claim on a purchase delivered to someone else.
    private func checkClaim(on purchase: Purchase, by claimant: DeliveryClaimant) throws(DeliveryRefusal) {
        if let player = claimant.reportingPlayer, player != purchase.playerId {
            throw .belongsToOtherPlayer(transactionId: purchase.transactionId, orderId: purchase.orderId)
        }
    }

    private struct Binding {
        var playerId: String
        var order: Order?
        var flags: Set<String> = []
        /// The chain's holder, when the transaction is another player's paid order in it:
        /// the entitlement moves to ``playerId`` once delivered.
        var takesChainFrom: String? = nil
    }

    /// Finds who receives the transaction: the holder of its chain's entitlement, if any,
    /// else by its order.
    private func bind(
        _ transaction: VerifiedTransaction, claimant: DeliveryClaimant, holder: Entitlement?
    ) async throws -> Binding {
        let transactionId = transaction.transactionId
        if let holder {
            var order: Order?
            if let token = transaction.appAccountToken, let tokenOrder = try await store.order(appAccountToken: token),
                tokenOrder.fulfilledBy == nil
            {
                if tokenOrder.playerId != holder.playerId {
                    // Another game account on the same Apple account ordered and paid this
                    // period (a resubscribe): the goods are that player's, and the chain
                    // follows them.
                    if let player = claimant.reportingPlayer, player != tokenOrder.playerId {
                        throw DeliveryRefusal.belongsToOtherPlayer(
                            transactionId: transactionId, orderId: tokenOrder.orderId)
                    }
                    try checkProduct(transaction, matches: tokenOrder)
                    return Binding(playerId: tokenOrder.playerId, order: tokenOrder, takesChainFrom: holder.playerId)
                }
                if tokenOrder.productId == transaction.productId { order = tokenOrder }
            }
            if let player = claimant.reportingPlayer, player != holder.playerId {
                throw DeliveryRefusal.belongsToOtherPlayer(transactionId: transactionId, orderId: nil)
            }
            // The chain's first transaction fulfilled its order; a renewal fulfils none (it
            // is no second charge for that order, which the flag `order_already_fulfilled`
            // would say).
            return Binding(playerId: holder.playerId, order: order)
        }
        if let token = transaction.appAccountToken, let order = try await store.order(appAccountToken: token) {
            if let player = claimant.reportingPlayer, player != order.playerId {
                throw DeliveryRefusal.belongsToOtherPlayer(transactionId: transactionId, orderId: order.orderId)
            }
            try checkProduct(transaction, matches: order)
            return Binding(playerId: order.playerId, order: order)
        }
        switch claimant {
        case .player(let playerId, let orderId?):
            guard let order = try await store.order(id: orderId) else {
                throw DeliveryRefusal.rejected(
                    "unknown_order", "no order \(orderId)", status: .notFound, transactionId: transactionId)
            }
            guard order.playerId == playerId else {
                throw DeliveryRefusal.rejected(
                    "order_belongs_to_other_player", "order \(orderId) is another player's", status: .conflict,
                    transactionId: transactionId, orderId: orderId)
            }
            try checkProduct(transaction, matches: order)
            return Binding(playerId: playerId, order: order)
        case .player(let playerId, nil):
            return Binding(playerId: playerId, order: nil, flags: [PurchaseFlag.unbound])
        case .support(let playerId?):
            return Binding(
                playerId: playerId, order: try await supportOrder(for: transaction, playerId: playerId),
                flags: [PurchaseFlag.unbound])
        case .appStore, .support(nil):
            throw DeliveryRefusal.pending(
                "unbound_transaction",
                "transaction \(transactionId) carries no known order binding; it is delivered when the player reports it",
                transactionId: transactionId)
        }
    }

    /// The order support's binding goes through: made for `playerId` now, with a token of its
    /// own that support's lookup sets at Apple, so that Apple's later signed data and
    /// notifications about the purchase find the player as any order's do. It expires at
    /// once (no purchase is made with it); the delivery fulfils it. When the delivery does
    /// not happen (another one won the race, or Apple refunded the transaction), it stays
    /// an expired, unfulfilled order.
    private func supportOrder(for transaction: VerifiedTransaction, playerId: String) async throws -> Order {
        let now = Date()
        return try await store.createOrder(
            Order(
                orderId: UUID().uuidString.lowercased(), playerId: playerId, productId: transaction.productId,
                quantity: transaction.quantity, appAccountToken: UUID().uuidString.lowercased(), createdAt: now,
                expiresAt: now))
    }

    private func checkProduct(_ transaction: VerifiedTransaction, matches order: Order) throws(DeliveryRefusal) {
        guard transaction.productId == order.productId else {
            throw .rejected(
                "product_mismatch", "order \(order.orderId) is for \(order.productId), not \(transaction.productId)",
                transactionId: transaction.transactionId, orderId: order.orderId)
        }
    }
}

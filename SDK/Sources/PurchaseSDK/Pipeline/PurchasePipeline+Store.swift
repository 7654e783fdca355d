/// Following the store: resuming at start-up, transactions that arrive outside a purchase
/// call, and promoted purchases.
extension PurchasePipeline {
    /// Binds the store's unfinished transactions, settles orders a dead process left
    /// before paying (or that the server fulfilled without the app), and restarts every
    /// order still owed a delivery or a finish.
    func resume() async throws {
        for transaction in (try? await configuration.store.unfinishedTransactions()) ?? [] {
            await accept(transaction)
        }
        for record in allRecords() where workers[record.id] == nil {
            switch record.state {
            case .created, .purchasing:
                // Unless the server fulfilled the order (below), the process died before the
                // store charged (an unfinished transaction would have been bound above):
                // nothing was paid. If the store charges after all, the transaction's token
                // still finds this record.
                if try await settleFulfilledByServer(record) { continue }
                try await persist(record.moved(to: .cancelled))
                await log("purchase_interrupted", record)
            case .pending:
                // Approved while the app was gone, and delivered and finished by the server
                // before the store showed the app the transaction.
                _ = try await settleFulfilledByServer(record)
            case .failed(let reason) where reason == Self.storeUnavailable && record.transactionId == nil:
                // The store's answer was lost; the charge, if there was one, was expected from
                // the store's updates, which do not show what the server finished.
                _ = try await settleFulfilledByServer(record)
            case .purchased, .reported, .delivered, .failed:
                guard !record.state.isSettled || (record.transactionId != nil && !record.transactionFinished)
                else { continue }
                await log("purchase_resumed", record, attributes: ["state": record.state.name])
                _ = launch(record.id)
            case .finished, .cancelled:
                continue
            }
        }
    }

    /// Settles a record whose transaction the store never showed the app (the app died
    /// while the store charged, Ask to Buy approved while it was closed, or the store's
    /// answer was lost), when the server says a transaction fulfilled its order: the server
    /// delivered it from Apple's notification and finished it at Apple (Finish
    /// Transaction), so the store no longer lists it. The record is journaled ``PurchaseState/finished`` with
    /// ``FinishReason/finishedByServer`` and announced as delivered. Returns `false`, and
    /// changes nothing, for a record without a server order, an order not fulfilled, or a
    /// server that cannot answer now.
    private func settleFulfilledByServer(_ record: PurchaseRecord) async throws -> Bool {
        guard let orderId = record.orderId, record.transactionId == nil else { return false }
        let order: ServerOrder
        do {
            let token = try await configuration.tokens(record.playerId)
            order = try await configuration.server.order(orderId: orderId, token: token)
        } catch {
            return false
        }
        guard order.status == "fulfilled", let transactionId = order.fulfilledBy else { return false }
        var next = record.moved(to: .finished)
        next.transactionId = transactionId
        next.transactionFinished = true
        next.finishReason = .finishedByServer
        try await persist(next)
        await log("transaction_finished_by_server", next)
        outcomeSink.yield(.delivered(next))
        return true
    }

    /// Follows the store's transaction updates and promoted purchases while running.
    func listen() {
        let updates = configuration.store.transactionUpdates()
        let promotions = configuration.store.promotedPurchases()
        listeners.append(
            Task {
                for await transaction in updates { await self.accept(transaction) }
            })
        listeners.append(
            Task {
                for await promotion in promotions { await self.receive(promotion) }
            })
    }

    /// Takes a transaction the store listed: binds it to its order from the journal (by
    /// transaction id, by token, or — when the store dropped the token — to the one order
    /// of that product still waiting for the store) and delivers it. A transaction no
    /// order knows goes to the signed-in player, or waits for one.
    func accept(_ transaction: StoreTransaction) async {
        guard case .running = phase,
            transactionsBeingAccepted.insert(transaction.transactionId).inserted
        else { return }
        defer { transactionsBeingAccepted.remove(transaction.transactionId) }
        do {
            if let record = binding(for: transaction) {
                try await continueOrder(record, with: transaction)
            } else if let player {
                var record = PurchaseRecord(
                    playerId: player, productId: transaction.productId, origin: .store, state: .purchased,
                    now: configuration.clock.now)
                record.bind(transaction)
                try await persist(record)
                await log("unknown_transaction_adopted", record)
                _ = launch(record.id)
            } else if !heldTransactions.contains(transaction) {
                heldTransactions.append(transaction)
            }
        } catch {
            // The journal could not be written (or the pipeline stopped): the transaction
            // stays unfinished with the store, which lists it again at the next start.
        }
    }

    private func continueOrder(_ record: PurchaseRecord, with transaction: StoreTransaction) async throws {
        guard workers[record.id] == nil else { return }
        guard record.transactionId != nil else {
            // The store charged for an order the journal took for unpaid (pending, cancelled
            // by a kill, or failed when the store's answer was lost): deliver it now.
            var next = record.moved(to: .purchased)
            next.bind(transaction)
            try await persist(next)
            await log("store_purchased", next, attributes: ["via": "transaction_update"])
            _ = launch(next.id)
            return
        }
        if record.transactionFinished {
            // Finished and journaled, yet listed again: finishing is idempotent.
            try? await configuration.store.finish(transactionId: transaction.transactionId)
        } else {
            _ = launch(record.id)
        }
    }

    /// The order a transaction belongs to, from the journal.
    private func binding(for transaction: StoreTransaction) -> PurchaseRecord? {
        let all = allRecords()
        if let record = all.first(where: { $0.transactionId == transaction.transactionId }) { return record }
        if let token = transaction.appAccountToken {
            return all.first { $0.appAccountToken == token && $0.transactionId == nil }
        }
        let waiting = all.filter {
            $0.transactionId == nil && $0.productId == transaction.productId
                && ($0.state == .purchasing || $0.state == .pending)
        }
        return waiting.count == 1 ? waiting[0] : nil
    }

    /// A purchase the customer started in the App Store: bought for the signed-in player,
    /// or held until one signs in.
    private func receive(_ promotion: PromotedPurchase) async {
        guard let player else {
            heldPromotions.append(promotion)
            return
        }
        startPromotedPurchase(promotion, playerId: player)
    }

    func startPromotedPurchase(_ promotion: PromotedPurchase, playerId: String) {
        Task {
            let record = PurchaseRecord(
                playerId: playerId, productId: promotion.productId, origin: .promoted, now: configuration.clock.now)
            try await self.persist(record)
            await self.log("promoted_purchase_started", record)
            _ = self.launch(record.id)
        }
    }
}

/// Restore: the store account's current transactions re-linked to the signed-in player.
extension PurchasePipeline {
    /// Restores the signed-in player's purchases: asks the store for the account's current
    /// transactions (``StoreClient/currentTransactions()``: the Apple account's, or the
    /// Google Play purchases the device holds), reports them
    /// to the server (`POST /v1/purchases/restore`, 100 at a time), which re-links
    /// non-consumables and subscriptions to the player as its transfer policy says and
    /// never grants a consumable again, and finishes those the store still lists as
    /// unfinished once the server holds them delivered (``RestoreStatus/isDeliveredOnServer``).
    /// Returns each transaction's verdict and the player's entitlements, which are cached.
    ///
    /// A restore is idempotent on the server, so calling it again is the recovery from any
    /// failure, and it journals only what a crash would otherwise leave behind: a
    /// transaction it is about to finish is journaled (origin ``PurchaseRecord/Origin/restore``)
    /// before the finish, and the next ``start()`` finishes it. One the server delivered to
    /// this player (``RestoreStatus/isDeliveredToPlayer``) is journaled
    /// ``PurchaseState/delivered`` and ends ``PurchaseOutcome/delivered(_:)`` on ``outcomes``.
    /// One another player keeps (``RestoreStatus/keptByOtherPlayer``, ``RestoreStatus/refused``)
    /// is journaled ``PurchaseState/failed(reason:)`` with the status's raw value as the
    /// reason (`kept_by_other_player`, `refused`), carries no ``PurchaseRecord/delivery``,
    /// and ends ``PurchaseOutcome/failed(_:)``: finished with the store, but never reported
    /// as delivered to the restoring player, who received nothing.
    /// Killed before that write, the transaction is still unfinished at the
    /// next start, which reports it like any unknown transaction. Unsigned transactions
    /// (StoreKit 1's restored ones) are reported by id with the app receipt that holds
    /// them; Google Play purchases by product id and purchase token (the server reads each
    /// from Google and acknowledges at Google what it delivers). An unfinished transaction an
    /// order of the journal already owns is left to that order.
    ///
    /// - Throws: ``PurchaseError/noPlayerSignedIn``, ``PurchaseError/notRunning``,
    ///   ``PurchaseError/storeUnavailable`` when the store cannot list the transactions (or
    ///   give the receipt unsigned ones need), and
    ///   ``ServerCallError`` when the server refused the restore or could not be reached
    ///   after the policy's ``RetryPolicy/orderAttempts``.
    public func restore() async throws -> RestoreOutcome {
        try ensureRunning()
        guard let player else { throw PurchaseError.noPlayerSignedIn }
        await log("restore_started", playerId: player)
        let current: [StoreTransaction]
        do {
            current = try await configuration.store.currentTransactions()
        } catch {
            try ensureRunning()
            await log("restore_failed", playerId: player, attributes: ["reason": Self.storeUnavailable])
            throw PurchaseError.storeUnavailable
        }
        var results: [RestoredTransaction] = []
        var entitlements: [PlayerEntitlement]?
        for (batch, body) in try await restoreBatches(current, of: player) {
            let answer = try await reportRestore(body, of: player)
            guard
                zip(batch, answer.results).allSatisfy({ transaction, result in
                    result.transactionId.map { $0 == transaction.transactionId } ?? true
                })
            else {
                await log("restore_failed", playerId: player, attributes: ["reason": "unreadable_answer"])
                throw ServerCallError.retryable(reason: "unreadable_answer")
            }
            results += zip(batch, answer.results).map { transaction, result in
                RestoredTransaction(
                    transactionId: transaction.transactionId, originalTransactionId: result.originalTransactionId,
                    productId: result.productId ?? transaction.productId,
                    status: RestoreStatus(rawValue: result.status),
                    code: result.code, message: result.message)
            }
            entitlements = answer.entitlements
        }
        let snapshot =
            if let entitlements {
                await remember(entitlements, of: player)
            } else {
                await self.entitlements(of: player, refresh: true)
            }
        for result in results {
            await log(
                "transaction_restored", playerId: player, transactionId: result.transactionId,
                attributes: ["status": result.status.rawValue, "code": result.code].compactMapValues { $0 })
        }
        try await finishRestored(&results, from: current, of: player)
        await log(
            "restore_completed", playerId: player,
            attributes: [
                "transactions": "\(results.count)",
                "unsigned": "\(current.count { $0.signedTransaction == nil && $0.googlePlay == nil })",
                "finished": "\(results.filter(\.finishedByRestore).count)",
            ])
        let events = events
        Task { await events.flush() }
        return RestoreOutcome(results: results, entitlements: snapshot)
    }

    /// The restore's requests, at most ``RestoreRequestBody/maximumCount`` transactions
    /// each: the signed transactions, the Google Play purchases, then the unsigned ones
    /// (StoreKit 1) by id with the app receipt, refreshed when the device has none.
    ///
    /// - Throws: ``PurchaseError/storeUnavailable`` when unsigned transactions need a
    ///   receipt the store cannot give.
    private func restoreBatches(_ current: [StoreTransaction], of playerId: String) async throws
        -> [(transactions: ArraySlice<StoreTransaction>, body: RestoreRequestBody)]
    {
        let limit = RestoreRequestBody.maximumCount
        let signed = current.filter { $0.signedTransaction != nil }
        let play = current.filter { $0.signedTransaction == nil && $0.googlePlay != nil }
        let unsigned = current.filter { $0.signedTransaction == nil && $0.googlePlay == nil }
        var batches = stride(from: 0, to: signed.count, by: limit).map { start in
            let batch = signed[start..<min(start + limit, signed.count)]
            return (batch, RestoreRequestBody(signedTransactions: batch.compactMap(\.signedTransaction)))
        }
        batches += stride(from: 0, to: play.count, by: limit).map { start in
            let batch = play[start..<min(start + limit, play.count)]
            return (batch, RestoreRequestBody(googlePlay: batch.compactMap(\.googlePlay)))
        }
        guard !unsigned.isEmpty else { return batches }
        let receipt: String
        do {
            var found = try await configuration.store.receipt(refresh: false)
            if found == nil { found = try await configuration.store.receipt(refresh: true) }
            guard let found else { throw PurchaseError.storeUnavailable }
            receipt = found
        } catch {
            try ensureRunning()
            await log("restore_failed", playerId: playerId, attributes: ["reason": "receipt_unavailable"])
            throw PurchaseError.storeUnavailable
        }
        batches += stride(from: 0, to: unsigned.count, by: limit).map { start in
            let batch = unsigned[start..<min(start + limit, unsigned.count)]
            return (batch, RestoreRequestBody(receipt: receipt, transactionIds: batch.map(\.transactionId)))
        }
        return batches
    }

    /// Sends one batch, retrying what may pass later up to the policy's order attempts.
    private func reportRestore(_ body: RestoreRequestBody, of playerId: String) async throws
        -> (results: [RestoreAnswer.Result], entitlements: [PlayerEntitlement])
    {
        var failures = 0
        while true {
            try ensureRunning()
            do {
                let token = try await configuration.tokens(playerId)
                return try await configuration.server.restore(body, token: token)
            } catch let error as ServerCallError {
                failures += 1
                guard case .retryable(_, let retryAfter) = error, failures < configuration.retry.orderAttempts else {
                    await log("restore_failed", playerId: playerId, attributes: ["reason": error.reason])
                    throw error
                }
                await log(
                    "restore_retried", playerId: playerId,
                    attributes: ["reason": error.reason, "attempt": "\(failures)"])
                try await wait(afterFailures: failures, retryAfter: retryAfter)
            }
        }
    }

    /// Finishes the restored transactions the store still lists as unfinished, the server
    /// holds delivered, and no order of the journal owns: each is journaled first
    /// (`delivered` when delivered to this player, `failed` when another player keeps it),
    /// then finished by its own worker (the path a restarted pipeline resumes).
    private func finishRestored(
        _ results: inout [RestoredTransaction], from transactions: [StoreTransaction], of playerId: String
    ) async throws {
        let unfinished = Set(((try? await configuration.store.unfinishedTransactions()) ?? []).map(\.transactionId))
        var workers: [(index: Int, worker: Task<PurchaseOutcome, any Error>)] = []
        for (index, result) in results.enumerated()
        where result.status.isDeliveredOnServer && unfinished.contains(result.transactionId) {
            guard let transaction = transactions.first(where: { $0.transactionId == result.transactionId }),
                let id = try await adoptRestored(transaction, result, of: playerId)
            else { continue }
            workers.append((index, launch(id)))
        }
        for (index, worker) in workers {
            results[index].finishedByRestore = try await worker.value.record.transactionFinished
        }
    }

    /// Journals a restored transaction, unless an order of the journal owns it or the
    /// purchase path is taking it in now; returns the record's id. Delivered to `playerId`
    /// (``RestoreStatus/isDeliveredToPlayer``): state `delivered` with the server's status
    /// as its delivery. Held by another player: state `failed(reason:)` with the status as
    /// the reason and no delivery, so neither the journal nor ``outcomes`` ever says this
    /// player received it.
    private func adoptRestored(_ transaction: StoreTransaction, _ result: RestoredTransaction, of playerId: String)
        async throws -> String?
    {
        guard !records.values.contains(where: { $0.transactionId == transaction.transactionId }),
            transactionsBeingAccepted.insert(transaction.transactionId).inserted
        else { return nil }
        defer { transactionsBeingAccepted.remove(transaction.transactionId) }
        let delivered = result.status.isDeliveredToPlayer
        var record = PurchaseRecord(
            playerId: playerId, productId: transaction.productId, origin: .restore,
            state: delivered ? .delivered : .failed(reason: result.status.rawValue), now: configuration.clock.now)
        record.bind(transaction)
        if delivered {
            record.delivery = ServerDelivery(
                status: result.status.rawValue, transactionId: transaction.transactionId, orderId: nil, grants: [:],
                balances: [:], flags: [])
        }
        try await pass(.afterServerCall, record)
        try await persist(record)
        await log(
            "restored_transaction_journaled", record,
            attributes: ["status": result.status.rawValue, "state": record.state.name])
        return record.id
    }
}

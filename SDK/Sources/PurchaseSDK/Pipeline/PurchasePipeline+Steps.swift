/// The steps of one order, from the server order to the finished transaction.
extension PurchasePipeline {
    /// Starts (or joins) the worker of a record; its outcome also goes to ``outcomes``.
    func launch(_ id: String) -> Task<PurchaseOutcome, any Error> {
        if let worker = workers[id] { return worker }
        let worker = Task { try await self.work(on: id) }
        workers[id] = worker
        return worker
    }

    private func work(on id: String) async throws -> PurchaseOutcome {
        defer { workers[id] = nil }
        let record = try await drive(id)
        guard let outcome = PurchaseOutcome(settled: record) else { throw PurchaseError.notRunning }
        outcomeSink.yield(outcome)
        let events = events
        Task { await events.flush() }
        return outcome
    }

    /// Moves the record through its states until it is settled.
    private func drive(_ id: String) async throws -> PurchaseRecord {
        while true {
            try ensureRunning()
            guard let record = records[id] else { throw PurchaseError.notRunning }
            switch record.state {
            case .created: try await createOrder(record)
            case .purchasing: try await buy(record)
            case .purchased:
                try await pass(.beforeReport, record)
                try await persist(record.moved(to: .reported))
            case .reported: try await report(record)
            case .delivered: try await finish(record, then: .finished)
            case .failed(let reason) where record.transactionId != nil && !record.transactionFinished:
                try await finish(record, then: .failed(reason: reason))
            case .finished, .failed, .cancelled, .pending: return record
            }
        }
    }

    /// `created` → the server order → `purchasing`; gives up (nothing was paid) after the
    /// policy's order attempts.
    private func createOrder(_ record: PurchaseRecord) async throws {
        try await pass(.beforeOrder, record)
        var failures = 0
        while true {
            do {
                let token = try await configuration.tokens(record.playerId)
                let order = try await configuration.server.createOrder(
                    productId: record.productId, quantity: record.quantity, token: token)
                try await pass(.afterOrder, record)
                var next = record.moved(to: .purchasing)
                next.orderId = order.orderId
                next.appAccountToken = order.appAccountToken
                try await persist(next)
                await log("order_created", next)
                return
            } catch let error as ServerCallError {
                failures += 1
                guard case .retryable(_, let retryAfter) = error, failures < configuration.retry.orderAttempts else {
                    try await persist(record.moved(to: .failed(reason: error.reason)))
                    await log("order_failed", record, attributes: ["reason": error.reason])
                    return
                }
                try await wait(afterFailures: failures, retryAfter: retryAfter)
            }
        }
    }

    /// `purchasing` → the store charges with the order's token → `purchased`, `pending`
    /// or `cancelled`.
    private func buy(_ record: PurchaseRecord) async throws {
        guard let token = record.appAccountToken else {
            try await persist(record.moved(to: .failed(reason: "missing_order")))
            return
        }
        try await pass(.beforeStorePurchase, record)
        await log("store_purchase_started", record)
        let result: StorePurchaseResult
        do {
            result = try await configuration.store.purchase(
                productId: record.productId, appAccountToken: token, quantity: record.quantity)
        } catch {
            try ensureRunning()
            try await persist(record.moved(to: .failed(reason: Self.storeUnavailable)))
            await log("store_purchase_failed", record)
            return
        }
        try await pass(.afterStorePurchase, record)
        var next = record
        switch result {
        case .purchased(let transaction):
            next.bind(transaction)
            next.state = .purchased
        case .pending: next.state = .pending
        case .userCancelled: next.state = .cancelled
        }
        try await persist(next)
        await log("store_" + next.state.name, next)
    }

    /// `reported` → the server's answer → `delivered`, or `failed(reason)` when refused for
    /// good. Retries forever while running.
    private func report(_ record: PurchaseRecord) async throws {
        var failures = 0
        while true {
            try ensureRunning()
            try await pass(.beforeServerCall, record)
            switch await send(record) {
            case .success(let delivery):
                try await pass(.afterServerCall, record)
                var next = record.moved(to: .delivered)
                next.delivery = delivery
                next.attempts = records[record.id]?.attempts ?? record.attempts
                try await persist(next)
                await log("purchase_delivered", next, attributes: ["status": delivery.status])
                return
            case .failure(.rejected(let reason, let message)):
                try await pass(.afterServerCall, record)
                try await persist(record.moved(to: .failed(reason: reason)))
                await log("purchase_rejected", record, attributes: ["reason": reason, "message": message])
                return
            case .failure(.retryable(let reason, let retryAfter)):
                failures += 1
                records[record.id]?.countFailedAttempt()
                await log("report_retried", record, attributes: ["reason": reason, "attempt": "\(failures)"])
                try await wait(afterFailures: failures, retryAfter: retryAfter)
            }
        }
    }

    /// Sends the report: the Google Play purchase or the signed transaction, or else the
    /// receipt with the transaction id.
    private func send(_ record: PurchaseRecord) async -> Result<ServerDelivery, ServerCallError> {
        do {
            var body = PurchaseReportBody(orderId: record.orderId)
            if let googlePlay = record.googlePlay {
                body.googlePlay = googlePlay
            } else if let signed = record.signedTransaction {
                body.signedTransaction = signed
            } else {
                body.transactionId = record.transactionId
                body.receipt = try await receipt()
            }
            let token = try await configuration.tokens(record.playerId)
            return .success(try await configuration.server.report(body, token: token))
        } catch let error as ServerCallError {
            return .failure(error)
        } catch {
            return .failure(.retryable(reason: "client_unavailable"))
        }
    }

    private func receipt() async throws -> String {
        if let receipt = try await configuration.store.receipt(refresh: false) { return receipt }
        guard let receipt = try await configuration.store.receipt(refresh: true) else {
            throw ServerCallError.retryable(reason: "no_receipt")
        }
        return receipt
    }

    /// Finishes the record's transaction with the store (retrying while the store fails),
    /// then journals `state`.
    private func finish(_ record: PurchaseRecord, then state: PurchaseState) async throws {
        guard let transactionId = record.transactionId else { return }
        try await pass(.beforeFinish, record)
        var failures = 0
        while true {
            do {
                try await configuration.store.finish(transactionId: transactionId)
                break
            } catch {
                failures += 1
                try await wait(afterFailures: failures)
            }
        }
        try await pass(.afterFinish, record)
        var next = record.moved(to: state)
        next.transactionFinished = true
        next.finishReason = state == .finished ? .delivered : .rejected
        try await persist(next)
        await log("transaction_finished", next)
    }

    /// Calls the crash hook at `boundary`; a ``SimulatedCrash`` stops the pipeline dead.
    func pass(_ boundary: PipelineBoundary, _ record: PurchaseRecord) async throws {
        try ensureRunning()
        do {
            try await configuration.hooks.crashPoint(boundary, record)
        } catch let crash as SimulatedCrash {
            stop()
            throw crash
        }
        try ensureRunning()
    }

    /// Waits before the next attempt: the backoff after `failures` failures, or at least
    /// the server's `retryAfter` (``RetryPolicy/delay(afterFailures:random:retryAfter:)``).
    func wait(afterFailures failures: Int, retryAfter: Duration? = nil) async throws {
        try ensureRunning()
        let delay = configuration.retry.delay(
            afterFailures: failures, random: configuration.random(), retryAfter: retryAfter)
        try await configuration.clock.sleep(for: delay)
    }
}

extension PurchasePipeline {
    /// The failure reason of an order whose store purchase gave no answer: the store may
    /// have charged, and the transaction then arrives later.
    static let storeUnavailable = "store_unavailable"
}

extension PurchaseRecord {
    /// The record in `state`.
    func moved(to state: PurchaseState) -> PurchaseRecord {
        var record = self
        record.state = state
        return record
    }
}

extension PurchaseState {
    /// The state's name in events: `purchased`, `failed`, … (a failure's reason is left
    /// out; it travels as an attribute of its own).
    public var name: String {
        switch self {
        case .created: "created"
        case .purchasing: "purchasing"
        case .purchased: "purchased"
        case .reported: "reported"
        case .delivered: "delivered"
        case .finished: "finished"
        case .pending: "pending"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}

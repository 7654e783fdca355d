import Foundation

/// Writes one player's years of history into a ``HistoryFillBatch`` as the server would have
/// recorded it: orders (and some never paid), the devices' client events, notifications
/// received, purchases with their grants, ledger entries, balances and outbox messages,
/// refunds whole and partial, subscription chains with their renewals, passes and
/// non-consumables with their entitlements, consumption consents and support's audit
/// entries. Every draw comes from `random`, so a seed gives the same ledger (its times
/// counted back from ``now``).
struct HistoryGenerator<Random: RandomNumberGenerator> {
    var random: Random
    let products: [FillProduct]
    /// The newest time in the history, in the ledger's milliseconds.
    let now: Int64
    /// How far back the history reaches.
    let span: Int64 = 3 * 365 * Self.day
    var summary: HistoryFillSummary

    private var transactionSequence: Int64 = 0
    private let consumables: [FillProduct]
    private let subscriptions: [FillProduct]
    private let others: [FillProduct]

    static var day: Int64 { 86_400_000 }

    init(random: Random, products: [FillProduct], now: Date) {
        self.random = random
        self.products = products
        self.now = now.ledgerMilliseconds
        consumables = products.filter { $0.kind == .consumable }
        subscriptions = products.filter { $0.kind == .autoRenewable }
        others = products.filter { $0.kind == .nonConsumable || $0.kind == .nonRenewing }
        summary = HistoryFillSummary(
            players: 0, purchases: 0, orders: 0, unpaidOrders: 0, refunds: 0, partialRefunds: 0, renewals: 0,
            entitlements: 0, historyEvents: 0, clientEvents: 0, notifications: 0, awaitingReports: 0, consents: 0,
            auditEntries: 0, whale: "", whalePurchases: 0, seconds: 0)
    }

    /// A player's id.
    static func playerId(_ index: Int) -> String { "player-" + String(index) }

    /// Writes player `index`'s history with `count` purchases into `batch`.
    mutating func player(_ index: Int, purchases count: Int, into batch: inout HistoryFillBatch) {
        var player = PlayerState(id: Self.playerId(index))
        summary.players += 1
        if count > summary.whalePurchases {
            summary.whale = player.id
            summary.whalePurchases = count
        }
        var remaining = count
        if remaining > 1, let subscription = subscriptions.first, chance(0.06) {
            let renewals = min(remaining - 1, Int(span / (Int64(subscription.periodDays ?? 30) * Self.day)) - 1)
            if renewals > 0 {
                subscriptionChain(subscription, periods: renewals, player: &player, into: &batch)
                remaining -= renewals + 1
            }
        }
        for product in others where remaining > 0 && chance(product.kind == .nonConsumable ? 0.10 : 0.03) {
            purchase(product, at: time(), player: &player, into: &batch)
            remaining -= 1
        }
        if !consumables.isEmpty {
            var times = (0..<remaining).map { _ in time() }
            times.sort()
            for at in times { purchase(consumable(), at: at, player: &player, into: &batch) }
        }
        for _ in 0..<unpaidOrders(for: count) { unpaidOrder(player: &player, into: &batch) }
        for (item, amount) in player.balances.sorted(by: { $0.key < $1.key }) {
            batch.balances.append(.text(player.id), .text(item), .integer(amount), .milliseconds(player.lastChange))
        }
        if chance(0.08) { consent(player: player, into: &batch) }
        if chance(min(1, Double(count) / 400)) { audit(player: player, into: &batch) }
    }

    // MARK: Purchases

    /// One purchase bought through an order, delivered, and perhaps refunded later.
    private mutating func purchase(
        _ product: FillProduct, at purchaseTime: Int64, player: inout PlayerState, into batch: inout HistoryFillBatch
    ) {
        let quantity = product.kind == .consumable && chance(0.1) ? Int64.random(in: 2...5, using: &random) : 1
        let source = deliverySource()
        let transactionId = nextTransactionId()
        let order = order(product, quantity: quantity, at: purchaseTime, player: player, into: &batch)
        clientEvent("purchase_started", at: order.createdAt + 50, player: player, into: &batch)
        let delivered = purchaseTime + Int64.random(in: 150...4_000, using: &random)
        if source != .clientSignedTransaction || chance(0.5) {
            let notified = purchaseTime + 900
            notification(
                product.kind == .consumable ? "ONE_TIME_CHARGE" : "SUBSCRIBED", transactionId: transactionId,
                at: notified, extra: [:], into: &batch)
            if source == .clientSignedTransaction && notified < delivered && chance(0.3) {
                awaitingReport(
                    product, transactionId: transactionId, purchaseTime: purchaseTime, at: notified + 5, into: &batch)
            }
        }
        let refund =
            product.kind == .consumable && delivered + 2 * Self.day < now && chance(0.015)
            ? refundDraw(after: delivered) : nil
        deliver(
            product, transactionId: transactionId, original: transactionId, orderId: order.id, quantity: quantity,
            source: source, purchaseTime: purchaseTime, deliveredAt: delivered, refund: refund, player: &player,
            into: &batch)
        batch.orders.append(
            .text(order.id), .text(player.id), .text(product.productId), .integer(quantity), .text(order.token),
            .text("fulfilled"), .milliseconds(order.createdAt), .milliseconds(order.createdAt + Self.day),
            .text(transactionId), .milliseconds(delivered))
        if chance(0.05) {
            clientEvent(
                "report_retried", at: delivered - 100, player: player, into: &batch,
                extra: ["attempt": "1", "reason": "network_error"])
        }
        clientEvent(
            "purchase_delivered", at: delivered + 80, player: player, into: &batch, extra: ["status": "delivered"])
        if source == .notification || source == .reconciler {
            history(
                "finished_at_apple", player: nil, orderId: nil, transactionId: transactionId, store: .appStore,
                detail: ["productType": product.kind.rawValue, "source": source.rawValue], at: delivered + 30,
                into: &batch)
        }
        if let refund {
            self.refund(
                refund, of: product, transactionId: transactionId, quantity: quantity, player: &player, into: &batch)
        }
        switch product.kind {
        case .consumable:
            break
        case .nonConsumable, .nonRenewing:
            let ends = product.periodDays.map { purchaseTime + Int64($0) * Self.day }
            entitlement(
                product, original: transactionId, latest: transactionId, startsAt: purchaseTime, endsAt: ends,
                changes: [purchaseTime], player: player, into: &batch)
        case .autoRenewable:
            break
        }
    }

    /// A subscription bought through an order and renewed `periods` times (`periods` + 1
    /// purchases), each renewal a purchase the App Store's notification delivered.
    private mutating func subscriptionChain(
        _ product: FillProduct, periods: Int, player: inout PlayerState, into batch: inout HistoryFillBatch
    ) {
        let period = Int64(product.periodDays ?? 30) * Self.day
        let latestStart = now - Int64(periods) * period
        let start = Int64.random(in: max(now - span, latestStart - 6 * period)...latestStart, using: &random)
        let original = nextTransactionId()
        let order = order(product, quantity: 1, at: start, player: player, into: &batch)
        clientEvent("purchase_started", at: order.createdAt + 50, player: player, into: &batch)
        let firstDelivered = start + Int64.random(in: 150...4_000, using: &random)
        deliver(
            product, transactionId: original, original: original, orderId: order.id, quantity: 1,
            source: .clientSignedTransaction, purchaseTime: start, deliveredAt: firstDelivered, refund: nil,
            player: &player,
            into: &batch)
        batch.orders.append(
            .text(order.id), .text(player.id), .text(product.productId), .integer(1), .text(order.token),
            .text("fulfilled"), .milliseconds(order.createdAt), .milliseconds(order.createdAt + Self.day),
            .text(original), .milliseconds(firstDelivered))
        clientEvent(
            "purchase_delivered", at: firstDelivered + 80, player: player, into: &batch, extra: ["status": "delivered"])
        var latest = original
        var changes = [start]
        for renewal in 1..<(periods + 1) {
            let renewed = start + Int64(renewal) * period
            let transactionId = nextTransactionId()
            notification("DID_RENEW", transactionId: transactionId, at: renewed + 600, extra: [:], into: &batch)
            deliver(
                product, transactionId: transactionId, original: original, orderId: nil, quantity: 1,
                source: .notification, purchaseTime: renewed, deliveredAt: renewed + 700, refund: nil, player: &player,
                into: &batch)
            latest = transactionId
            changes.append(renewed)
            summary.renewals += 1
        }
        entitlement(
            product, original: original, latest: latest, startsAt: start, endsAt: start + Int64(periods + 1) * period,
            changes: changes, player: player, into: &batch)
    }

    /// The purchase row, its grants in the ledger and the balances, its outbox message and
    /// its `delivered` event.
    private mutating func deliver(
        _ product: FillProduct, transactionId: String, original: String, orderId: String?, quantity: Int64,
        source: DeliverySource, purchaseTime: Int64, deliveredAt: Int64, refund: RefundDraw?,
        player: inout PlayerState, into batch: inout HistoryFillBatch
    ) {
        let grants = product.grants.mapValues { $0 * quantity }
        let grantsText = LedgerJSON.text(grants)
        let environment = chance(0.005) ? PurchaseEnvironment.sandbox : .production
        batch.purchases.append(
            .text(Store.appStore.rawValue), .text(transactionId), .text(original), .text(player.id),
            orderId.map(BulkValue.text) ?? .null, .text(product.productId), .integer(quantity),
            .text(environment.rawValue), .text(source.rawValue), .text("[]"), .text(grantsText),
            .text(refund?.share == 100_000 ? "refunded" : "delivered"), .milliseconds(purchaseTime),
            .milliseconds(deliveredAt), refund.map { .milliseconds($0.at) } ?? .null,
            refund.map { .text($0.reason) } ?? .null, .integer(refund?.share ?? 0))
        for (item, amount) in grants.sorted(by: { $0.key < $1.key }) {
            let balance = player.change(item, by: amount, at: deliveredAt)
            batch.ledgerEntries.append(
                .text(player.id), .text(item), .integer(amount), .text("grant"), .text(transactionId), .null, .null,
                .integer(balance), .milliseconds(deliveredAt))
        }
        let payload = LedgerJSON.text([
            "environment": environment.rawValue, "grants": grantsText, "kind": "delivery", "orderId": orderId ?? "",
            "originalTransactionId": original, "playerId": player.id, "productId": product.productId,
            "purchaseDate": String(purchaseTime), "quantity": String(quantity), "source": source.rawValue,
            "store": Store.appStore.rawValue, "transactionId": transactionId,
        ])
        outbox(
            key: transactionId, player: player, transactionId: transactionId, payload: payload, at: deliveredAt,
            into: &batch)
        history(
            "delivered", player: player.id, orderId: orderId, transactionId: transactionId, store: .appStore,
            detail: [
                "environment": environment.rawValue, "flags": "", "grants": grantsText, "productId": product.productId,
                "quantity": String(quantity), "source": source.rawValue,
            ], at: deliveredAt, into: &batch)
        summary.purchases += 1
    }

    /// When and how much of a purchase Apple refunds.
    struct RefundDraw {
        var share: Int64
        var at: Int64
        var reason: String
    }

    /// A refund of the whole purchase or (three in ten) half of it, one to thirty days after
    /// `delivered`.
    private mutating func refundDraw(after delivered: Int64) -> RefundDraw {
        RefundDraw(
            share: chance(0.3) ? 50_000 : 100_000,
            at: min(now - 1_000, delivered + Int64.random(in: Self.day...(30 * Self.day), using: &random)),
            reason: "REFUND")
    }

    /// Apple's refund: the notice, the notification, the entries taking the goods back, the
    /// `refunded` event and the integrator's message (the purchase row already says it).
    private mutating func refund(
        _ refund: RefundDraw, of product: FillProduct, transactionId: String, quantity: Int64,
        player: inout PlayerState, into batch: inout HistoryFillBatch
    ) {
        let notice = uuid()
        let at = refund.at
        batch.refundNotices.append(
            .text(notice), .text(Store.appStore.rawValue), .text(transactionId), .text("refund"),
            .integer(refund.share), .text(refund.reason), .milliseconds(at - 500), .milliseconds(at))
        notification(
            "REFUND", transactionId: transactionId, at: at, uuid: notice,
            extra: ["revokedShare": String(refund.share), "signedDate": String(at - 500)], into: &batch)
        var taken: [String: Int64] = [:]
        for (item, amount) in product.grants.sorted(by: { $0.key < $1.key }) {
            let back = -(amount * quantity * refund.share / 100_000)
            taken[item] = back
            let balance = player.change(item, by: back, at: at)
            batch.ledgerEntries.append(
                .text(player.id), .text(item), .integer(back), .text("refund"), .text(transactionId),
                .text(refund.reason), .null, .integer(balance), .milliseconds(at))
        }
        let takenText = LedgerJSON.text(taken)
        history(
            "refunded", player: player.id, orderId: nil, transactionId: transactionId, store: .appStore,
            detail: [
                "grants": takenText, "previousRefundedShare": "0", "reason": refund.reason,
                "refundedShare": String(refund.share),
            ], at: at, into: &batch)
        let payload = LedgerJSON.text([
            "grants": takenText, "kind": "refund", "playerId": player.id, "productId": product.productId,
            "reason": refund.reason, "refundedShare": String(refund.share), "sequence": "1",
            "store": Store.appStore.rawValue, "transactionId": transactionId,
        ])
        outbox(
            key: Store.appStore.key(transactionId) + ":refund:1", player: player, transactionId: transactionId,
            payload: payload, at: at, into: &batch)
        summary.refunds += 1
        if refund.share < 100_000 { summary.partialRefunds += 1 }
    }

    // MARK: Orders, events and the rest

    /// An order the player made before paying: its `order_created` event (the row is
    /// written once the caller knows whether it was paid).
    private mutating func order(
        _ product: FillProduct, quantity: Int64, at purchaseTime: Int64, player: PlayerState,
        into batch: inout HistoryFillBatch
    ) -> (id: String, token: String, createdAt: Int64) {
        let order = (
            id: uuid(), token: uuid(), createdAt: purchaseTime - Int64.random(in: 2_000...60_000, using: &random)
        )
        history(
            "order_created", player: player.id, orderId: order.id, transactionId: nil, store: nil,
            detail: [
                "appAccountToken": order.token, "expiresAt": String(order.createdAt + Self.day),
                "productId": product.productId, "quantity": String(quantity),
            ], at: order.createdAt, into: &batch)
        summary.orders += 1
        return order
    }

    /// An order the player made and never paid for (cancelled at the store, or abandoned).
    private mutating func unpaidOrder(player: inout PlayerState, into batch: inout HistoryFillBatch) {
        let product = consumable()
        let at = time()
        let order = order(product, quantity: 1, at: at, player: player, into: &batch)
        batch.orders.append(
            .text(order.id), .text(player.id), .text(product.productId), .integer(1), .text(order.token),
            .text("created"), .milliseconds(order.createdAt), .milliseconds(order.createdAt + Self.day), .null, .null)
        clientEvent("purchase_started", at: order.createdAt + 50, player: player, into: &batch)
        clientEvent("purchase_cancelled", at: order.createdAt + 9_000, player: player, into: &batch)
        summary.unpaidOrders += 1
    }

    /// How many unpaid orders a player with `purchases` has: about one for every eight.
    private mutating func unpaidOrders(for purchases: Int) -> Int {
        purchases / 8 + (chance(Double(purchases % 8) / 8) ? 1 : 0)
    }

    /// An entitlement row as it stands now, with an `entitlement_changed` event and its
    /// outbox message for each change (`changes`: when each period began).
    private mutating func entitlement(
        _ product: FillProduct, original: String, latest: String, startsAt: Int64, endsAt: Int64?, changes: [Int64],
        player: PlayerState, into batch: inout HistoryFillBatch
    ) {
        guard let entitlementId = product.entitlement else { return }
        let standing = endsAt.map { $0 > now } ?? true
        let state = standing ? "active" : "expired"
        let renews = product.kind == .autoRenewable
        let signed = changes.last ?? startsAt
        batch.entitlements.append(
            .text(Store.appStore.rawValue), .text(original), .text(player.id), .text(entitlementId),
            .text(product.productId), .text(product.kind.rawValue), .text(latest), .text(state),
            .milliseconds(startsAt), endsAt.map(BulkValue.milliseconds) ?? .null,
            renews ? .integer(standing ? 1 : 0) : .null, renews ? .text(product.productId) : .null, .text("PURCHASED"),
            .text(PurchaseEnvironment.production.rawValue), .milliseconds(signed), .milliseconds(signed + 800))
        let period = Int64(product.periodDays ?? 30) * Self.day
        for (index, change) in changes.enumerated() {
            let until = renews ? String(change + period) : endsAt.map(String.init) ?? "permanent"
            let reason = index == 0 ? "client_signed_transaction" : "DID_RENEW"
            history(
                "entitlement_changed", player: player.id, orderId: nil, transactionId: original, store: .appStore,
                detail: [
                    "appleSignedDate": String(change), "entitlementId": entitlementId,
                    "originalTransactionId": original,
                    "productId": product.productId, "reason": reason, "state": "active", "until": until,
                ], at: change + 800, into: &batch)
            outbox(
                key: "entitlement:\(original):\(player.id):\(change):active:\(latest):\(until)", player: player,
                transactionId: original,
                payload: LedgerJSON.text([
                    "entitlementId": entitlementId, "kind": "entitlement", "originalTransactionId": original,
                    "playerId": player.id, "productId": product.productId, "reason": reason, "state": "active",
                    "store": Store.appStore.rawValue, "until": until,
                ]), at: change + 800, into: &batch)
        }
        summary.entitlements += 1
    }

    /// An App Store Server Notification received and processed, and its
    /// `notification_received` event.
    private mutating func notification(
        _ type: String, transactionId: String, at: Int64, uuid notificationUUID: String? = nil, extra: [String: String],
        into batch: inout HistoryFillBatch
    ) {
        let notificationUUID = notificationUUID ?? uuid()
        batch.notifications.append(
            .text(Store.appStore.rawValue), .text(notificationUUID), .text(type), .null, .text(transactionId),
            .milliseconds(at), .milliseconds(at + 6))
        var detail = extra
        detail["notificationType"] = type
        detail["notificationUUID"] = notificationUUID
        detail["signedDate"] = detail["signedDate"] ?? String(at - 300)
        history(
            "notification_received", player: nil, orderId: nil, transactionId: transactionId, store: .appStore,
            detail: detail, at: at, into: &batch)
        summary.notifications += 1
    }

    /// The `awaiting_report` event of a notification that came before the device's report
    /// and named no order the server knew (a game that does not set `appAccountToken` on
    /// every purchase): the owed queue's evidence, settled when the device reported.
    private mutating func awaitingReport(
        _ product: FillProduct, transactionId: String, purchaseTime: Int64, at: Int64,
        into batch: inout HistoryFillBatch
    ) {
        let detail = OwedTransaction.detail(
            reason: "unbound_transaction", productId: product.productId, source: DeliverySource.notification.rawValue,
            price: nil, currency: nil, purchaseDate: Date(ledgerMilliseconds: purchaseTime), appAccountToken: nil)
        history(
            HistoryEventType.awaitingReport.rawValue, player: nil, orderId: nil, transactionId: transactionId,
            store: .appStore, detail: detail, at: at, into: &batch)
        summary.awaitingReports += 1
    }

    /// A purchase-flow event the player's device reported.
    private mutating func clientEvent(
        _ name: String, at: Int64, player: PlayerState, into batch: inout HistoryFillBatch,
        extra: [String: String] = [:]
    ) {
        var detail = extra
        detail["name"] = name
        detail["occurredAt"] = String(at)
        history(
            "client_event", player: player.id, orderId: nil, transactionId: nil, store: nil, detail: detail,
            at: at + 400, into: &batch)
        summary.clientEvents += 1
    }

    private mutating func history(
        _ type: String, player: String?, orderId: String?, transactionId: String?, store: Store?,
        detail: [String: String], at: Int64, into batch: inout HistoryFillBatch
    ) {
        batch.history.append(
            .text(type), player.map(BulkValue.text) ?? .null, orderId.map(BulkValue.text) ?? .null,
            transactionId.map(BulkValue.text) ?? .null, store.map { .text($0.rawValue) } ?? .null,
            .text(LedgerJSON.text(detail)), .milliseconds(at))
        summary.historyEvents += 1
    }

    /// A message to the integrator's webhook, delivered at the first attempt.
    private func outbox(
        key: String, player: PlayerState, transactionId: String, payload: String, at: Int64,
        into batch: inout HistoryFillBatch
    ) {
        batch.outbox.append(
            .text(key), .text(player.id), .text(transactionId), .text(payload), .integer(1), .milliseconds(at),
            .milliseconds(at), .milliseconds(at + 60))
    }

    /// The player's answer to Apple's consumption question, given (or, one in ten, withdrawn).
    private mutating func consent(player: PlayerState, into batch: inout HistoryFillBatch) {
        batch.consents.append(
            .text(player.id), .text(chance(0.9) ? "given" : "withdrawn"), .text("player"), .null, .null,
            .milliseconds(time()))
        summary.consents += 1
    }

    /// A support agent looking the player up.
    private mutating func audit(player: PlayerState, into batch: inout HistoryFillBatch) {
        batch.audit.append(
            .text("agent-" + String(Int.random(in: 1...12, using: &random))), .text("view_player"), .text(player.id),
            .text("{}"), .text("10.0.0." + String(Int.random(in: 2...250, using: &random))), .milliseconds(time()))
        summary.auditEntries += 1
    }

    // MARK: Draws

    private mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }

    /// A moment of the history's span, at least an hour before ``now``.
    private mutating func time() -> Int64 {
        Int64.random(in: (now - span)...(now - 3_600_000), using: &random)
    }

    /// A consumable, the cheaper ones more often (the first twice the second's share, …).
    private mutating func consumable() -> FillProduct {
        let weights = consumables.indices.map { 1 / Double($0 + 1) }
        var draw = Double.random(in: 0..<weights.reduce(0, +), using: &random)
        for (index, weight) in weights.enumerated() {
            draw -= weight
            if draw < 0 { return consumables[index] }
        }
        return consumables[consumables.count - 1]
    }

    /// How the purchase reached the server: mostly the device's report.
    private mutating func deliverySource() -> DeliverySource {
        let draw = Double.random(in: 0..<1, using: &random)
        return draw < 0.86
            ? .clientSignedTransaction : draw < 0.96 ? .notification : draw < 0.99 ? .reconciler : .clientReceipt
    }

    /// A lowercase UUID (version 4) from the generator, written digit by digit: a fill
    /// makes millions.
    private mutating func uuid() -> String {
        let words = (random.next() & 0xFFFF_FFFF_FFFF_0FFF | 0x4000, random.next())
        return String(unsafeUninitializedCapacity: 36) { text in
            var written = 0
            for digit in 0..<32 {
                if digit == 8 || digit == 12 || digit == 16 || digit == 20 {
                    text[written] = UInt8(ascii: "-")
                    written += 1
                }
                let nibble = UInt8(
                    truncatingIfNeeded: (digit < 16 ? words.0 : words.1) >> UInt64(60 - 4 * (digit % 16)) & 0xF)
                text[written] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                written += 1
            }
            return written
        }
    }

    /// The next App Store transaction id: 16 digits, unique in the fill.
    private mutating func nextTransactionId() -> String {
        transactionSequence += 1
        return String(4_000_000_000_000_000 + transactionSequence)
    }
}

/// What the generator tracks of the player it is writing: the balances so far.
struct PlayerState {
    let id: String
    private(set) var balances: [String: Int64] = [:]
    private(set) var lastChange: Int64 = 0

    init(id: String) { self.id = id }

    /// Adds `amount` of `item` at `time`; the balance after.
    mutating func change(_ item: String, by amount: Int64, at time: Int64) -> Int64 {
        let balance = balances[item, default: 0] + amount
        balances[item] = balance
        lastChange = max(lastChange, time)
        return balance
    }
}

extension HistoryGenerator {
    /// How many purchases a player other than the whale makes, below `whale`: one for
    /// about half of them, two to four for a quarter, five to twenty for a sixth, and up
    /// to 150 for the rest.
    mutating func purchaseCount(below whale: Int) -> Int {
        let draw = Double.random(in: 0..<1, using: &random)
        let count =
            draw < 0.55
            ? 1
            : draw < 0.80
                ? Int.random(in: 2...4, using: &random)
                : draw < 0.95
                    ? Int.random(in: 5...20, using: &random) : Int.random(in: 21...150, using: &random)
        return max(1, min(count, whale - 1))
    }
}

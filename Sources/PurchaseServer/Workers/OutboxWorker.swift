import AppStoreAPI
import Crypto
import Foundation
import Ledger
import Logging

/// Posts each outbox message (a delivery, a change of a purchase's refunded share, or a
/// change of an entitlement) to the game server's webhook, until acknowledged.
///
/// The body is the ``DeliveryMessage``, ``RefundMessage`` or ``EntitlementMessage`` JSON
/// (whatever kind the ledger enqueued, posted as stored), signed with HMAC-SHA256
/// (`X-StoreKeeper-Signature: sha256=<hex>`), with `Idempotency-Key: <the message's key>`.
/// Any 2xx acknowledges; anything else is retried with exponential backoff and jitter.
/// Claims in the ledger keep two workers (or two servers) from posting one message at once.
struct OutboxWorker: Sendable {
    let store: any LedgerStore
    let webhook: WebhookSettings
    let transport: any HTTPTransport
    let metrics: ServerMetrics
    let logger: Logger
    /// Messages claimed per pass.
    var batchSize = 32

    /// Posts up to ``batchSize`` due messages once.
    func runOnce(now: Date = Date()) async throws -> Pass {
        let messages = try await store.dueOutboxMessages(now: now, limit: batchSize)
        var acknowledged = 0
        for message in messages {
            let failure: String?
            do {
                let response = try await post(request(for: message))
                failure = response.isSuccess ? nil : "HTTP \(response.status)"
            } catch {
                failure = "\(error)"
            }
            metrics.recordOutbox(success: failure == nil)
            if let failure {
                let delay = Self.backoff(afterAttempts: message.attempts + 1)
                logger.warning(
                    "webhook post failed",
                    metadata: ["transactionId": .string(message.idempotencyKey), "error": .string(failure)])
                try await store.markOutboxFailed(
                    id: message.id, nextAttemptAt: Date().addingTimeInterval(delay), error: String(failure.prefix(500)))
            } else {
                try await store.markOutboxDelivered(id: message.id)
                acknowledged += 1
            }
        }
        return Pass(claimed: messages.count, acknowledged: acknowledged, full: messages.count == batchSize)
    }

    /// What one pass did.
    struct Pass {
        /// Messages claimed.
        var claimed: Int
        /// Messages the game server acknowledged.
        var acknowledged: Int
        /// Whether the batch was full, so more may be due.
        var full: Bool
    }

    /// Sends a post, giving up after the webhook's timeout.
    private func post(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        try await withThrowingTaskGroup(of: HTTPResponseData?.self) { group in
            group.addTask { try await transport.send(request) }
            group.addTask {
                try await Task.sleep(for: .seconds(webhook.timeoutSeconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let response = try await group.next() ?? nil else {
                throw ServerError(
                    "webhook_timeout", "no answer in \(webhook.timeoutSeconds) s", status: .gatewayTimeout)
            }
            return response
        }
    }

    /// The signed POST for a message.
    func request(for message: OutboxMessage) -> HTTPRequestData {
        HTTPRequestData(
            method: .post, url: webhook.url,
            headers: [
                "Content-Type": "application/json",
                "Idempotency-Key": message.idempotencyKey,
                "X-StoreKeeper-Signature": "sha256="
                    + Self.signature(of: message.payload, secret: webhook.secret ?? ""),
            ],
            body: message.payload)
    }

    /// Hex HMAC-SHA256 of `body` under `secret`: what a game server recomputes to check a post.
    static func signature(of body: Data, secret: String) -> String {
        HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
            .map { String(format: "%02x", $0) }.joined()
    }

    /// Seconds before attempt `attempts + 1`: 2^attempts, at most an hour, with up to 20%
    /// jitter so that a recovering webhook is not hit by every message at once.
    static func backoff(afterAttempts attempts: Int) -> TimeInterval {
        let base = min(pow(2, Double(min(attempts, 12))), 3_600)
        return base * Double.random(in: 0.8...1.0)
    }
}

import Ledger
import Prometheus

/// The server's Prometheus metrics, served at `/metrics` in the text exposition format.
///
/// Label values are stable codes (sources, reasons, notification types, route patterns),
/// so the number of series stays bounded whatever clients send.
public struct ServerMetrics: Sendable {
    /// The registry the metrics live in.
    public let registry: PrometheusCollectorRegistry

    /// Creates the metrics in a registry of their own.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
    }

    func recordDelivery(source: DeliverySource, first: Bool) {
        count(
            "deliveries", "Delivery attempts that reached the ledger, by source and result.",
            [("source", source.rawValue), ("result", first ? "delivered" : "already_delivered")])
    }

    func recordRefusal(_ refusal: DeliveryRefusal) {
        count(
            "refusals", "Reported transactions not delivered, by stable reason.",
            [("kind", refusal.kind == .rejected ? "rejected" : "pending"), ("reason", refusal.reason)])
    }

    func recordNotification(type: String, duplicate: Bool) {
        count(
            "notifications", "App Store Server Notifications received (intake and reconciler).",
            [("type", type), ("duplicate", duplicate ? "true" : "false")])
    }

    /// Counts a call to Apple that follows a delivery or a binding: `finish_transaction` or
    /// `set_app_account_token`.
    func recordAppleFollowUp(_ operation: String, success: Bool) {
        count(
            "apple_follow_ups", "Finish Transaction and Set App Account Token calls to Apple, by result.",
            [("operation", operation), ("result", success ? "succeeded" : "failed")])
    }

    /// Counts a call to Google that follows a Play delivery: `consume` or `acknowledge`.
    func recordPlayFollowUp(_ operation: String, success: Bool) {
        count(
            "google_play_follow_ups", "Consume and acknowledge calls to Google Play after deliveries, by result.",
            [("operation", operation), ("result", success ? "succeeded" : "failed")])
    }

    func recordOutbox(success: Bool) {
        count(
            "outbox_sends", "Webhook posts of deliveries to the game server.",
            [("result", success ? "delivered" : "failed")])
    }

    func recordRequest(route: String, status: Int, duration: Duration) {
        count(
            "http_requests", "HTTP requests answered, by route and status.",
            [("route", route), ("status", String(status))])
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "storekeeper", metricName: "http_request_duration", unitName: "seconds",
                helpText: "HTTP request latency, by route."),
            labels: [("route", route)],
            buckets: [
                .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                .milliseconds(100), .milliseconds(250), .seconds(1), .seconds(5),
            ]
        ).record(duration)
    }

    /// The text exposition of every metric.
    public func exposition() -> String {
        registry.emitToString()
    }

    private func count(_ name: String, _ help: String, _ labels: [(String, String)]) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "storekeeper", metricName: name, unitName: "total", helpText: help),
            labels: labels
        ).increment()
    }
}

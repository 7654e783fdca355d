import Ledger

extension HistoryEventType {
    /// The server consumed (a consumable) or acknowledged (anything else) at Google a Play
    /// purchase it delivered, so Google does not refund and revoke it after three days; the
    /// detail names the `action` (`consume` or `acknowledge`), the `source` that asked, and
    /// `alreadyDone` when Google had it consumed or acknowledged already.
    public static let acknowledgedAtGoogle: HistoryEventType = "acknowledged_at_google"
    /// Consuming or acknowledging at Google failed in a way that may pass (transport, 429,
    /// 5xx); the detail holds the `action`, Google's answer (`error`, `httpStatus`, `reason`)
    /// and the `source`. The next report of the purchase or the reconciler tries again.
    public static let acknowledgeAtGoogleFailed: HistoryEventType = "acknowledge_at_google_failed"
    /// Google refused to consume or acknowledge the purchase for good (it is canceled or
    /// refunded); the detail is ``acknowledgeAtGoogleFailed``'s. Not tried again.
    public static let acknowledgeAtGoogleRefused: HistoryEventType = "acknowledge_at_google_refused"
}

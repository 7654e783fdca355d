/// The paths a manual grant comes by, as its ``HistoryEventType/manualGrant`` event's
/// `via` detail names them (absent: the support console, which audits its grants itself).
public enum ManualGrantPath {
    /// `POST /v1/admin/grants`: the admin API, which names its actor in the request.
    public static let adminAPI = "admin_api"
}

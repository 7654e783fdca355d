import PurchaseSDK

/// What `events` answers: how many purchase-flow events it just sent to the server
/// (`POST /v1/events`, where support reads them) and the ones still waiting to be sent.
struct EventsJSON: Encodable, Sendable {
    var sent: Int
    var unsent: [PurchaseEvent]
}

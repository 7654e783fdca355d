import Ledger

extension HistoryEventType {
    /// The server answered Apple's `CONSUMPTION_REQUEST`; the detail holds what it sent.
    static let consumptionInformationSent: HistoryEventType = "consumption_information_sent"
    /// The server did not answer a `CONSUMPTION_REQUEST`; the detail says why (`reason`:
    /// `no_consent`, `consent_withdrawn`, `purchase_unknown`, `answers_off`).
    static let consumptionInformationNotSent: HistoryEventType = "consumption_information_not_sent"
    /// Sending the answer to a `CONSUMPTION_REQUEST` failed; the detail holds Apple's error.
    static let consumptionInformationFailed: HistoryEventType = "consumption_information_failed"
}

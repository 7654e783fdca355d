/// The simulation's ground truth, kept on the devices' side and never read from the
/// server: who paid for each order token, and what happened to each order and transaction,
/// for the history of an offending transaction.
actor PaymentBook {
    private var payers: [String: String] = [:]
    private var notes: [String: [String]] = [:]

    /// Records that `player` is about to pay for the order carrying `token`.
    func recordPayment(token: String, player: String, productId: String, device: String) {
        payers[token] = player
        note("\(player) pays for \(productId) on \(device)", about: token)
    }

    /// The player who paid for the order carrying `token`.
    func payer(token: String) -> String? {
        payers[token]
    }

    /// Adds a line to the history of an order token or a transaction id.
    func note(_ line: String, about key: String) {
        notes[key, default: []].append(line)
    }

    /// What happened to the order `token` and the transaction `transactionId`.
    func history(token: String?, transactionId: String) -> [String] {
        (token.flatMap { notes[$0] } ?? []) + (notes[transactionId] ?? [])
    }
}

import OrderSimulation

extension PurchaseGroundTruth {
    /// Apple's charges as the emulator's `GET /emulator/v1/ledger` lists them, each paid by
    /// the player whose order carried its app account token (by the players' own record).
    func charges(fromEmulatorLedger ledger: [[String: Any]]) -> [Charge] {
        let payers = self.payers
        return ledger.map { entry in
            Charge(
                transactionId: entry["transactionId"] as? String ?? "", productId: entry["productId"] as? String ?? "",
                quantity: entry["quantity"] as? Int ?? 0,
                payer: (entry["appAccountToken"] as? String).flatMap { payers[$0] },
                refunded: entry["refundState"] as? String == "refunded")
        }
    }
}

import AppStoreAPI
import Foundation
import Hummingbird
import Ledger
import PurchaseServer

extension SupportPages {
    /// `POST /console/owed/{transactionId}/deliver` (agents and admins, field `playerId`):
    /// binds a transaction Apple charged to the player support names and delivers it
    /// through the normal path (``PurchaseServer/deliverOwed(transactionId:toPlayer:)``),
    /// audited as `deliver_owed` with the outcome. Delivered: back to the player page with
    /// notice `delivered`; otherwise the error page says why (`already_delivered` naming
    /// the player, `apple_unavailable`, `not_configured`, `delivery_refused`, …).
    func deliverOwedAction(
        _ request: Request, _ context: some RequestContext, _ caller: ConsoleCaller, _ form: ConsoleForm
    ) async throws -> ConsoleOutcome {
        let transactionId = try context.consoleParameter(
            "transactionId", maximumBytes: PurchaseServer.maximumTransactionIdBytes)
        let playerId = (form["playerId"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...256).contains(playerId.utf8.count), !ConsoleText.hasControlCharacters(playerId) else {
            throw ConsoleError(code: "player_required")
        }
        var detail = ["playerId": playerId]
        let delivery: SupportDelivery
        do {
            delivery = try await server.deliverOwed(transactionId: transactionId, toPlayer: playerId)
        } catch let error as ServerError {
            detail["outcome"] = error.code
            try await caller.audit(action: "deliver_owed", target: transactionId, detail: detail)
            throw ConsoleError(error, subject: transactionId)
        }
        detail["outcome"] = delivery.status.rawValue
        detail["reason"] = delivery.reason
        detail["deliveredTo"] = delivery.purchase?.playerId
        detail["appAccountTokenAtApple"] = delivery.appAccountTokenAtApple
        try await caller.audit(action: "deliver_owed", target: transactionId, detail: detail)
        switch delivery.status {
        case .delivered:
            return .redirect(to: ConsoleLinks.player(delivery.purchase?.playerId ?? playerId), notice: "delivered")
        case .alreadyDelivered:
            throw ConsoleError(code: "already_delivered", status: .conflict, detail: delivery.purchase?.playerId)
        case .pending:
            throw ConsoleError(
                code: delivery.reason == "apple_unavailable" ? "apple_unavailable" : "delivery_pending",
                status: .serviceUnavailable, detail: delivery.message)
        case .rejected:
            throw ConsoleError(
                code: "delivery_refused", status: .unprocessableContent,
                detail: [delivery.reason, delivery.message].compactMap { $0 }.joined(separator: ": "))
        }
    }

    /// `POST /console/owed/reconcile` (agents and admins): one reconciler pass now, audited
    /// as `run_reconciler`; back to the owed page with notice `reconciled` and what the pass
    /// found (``ReconcilePassSummary``).
    func reconcileAction(
        _ request: Request, _ context: some RequestContext, _ caller: ConsoleCaller, _ form: ConsoleForm
    ) async throws -> ConsoleOutcome {
        do {
            let report = try await server.runReconcilerPass()
            try await caller.audit(
                action: "run_reconciler",
                detail: [
                    "outcome": "completed", "fetched": String(report.fetched), "processed": String(report.processed),
                ])
            return .redirect(to: ReconcilePassSummary(report).owedPath, notice: "reconciled")
        } catch let error as ServerError {
            try await caller.audit(action: "run_reconciler", detail: ["outcome": error.code])
            throw ConsoleError(error, subject: "reconciler")
        } catch let error as ReconcilerLeaseError {
            try await caller.audit(action: "run_reconciler", detail: ["outcome": "busy"])
            throw ConsoleError(code: "reconciler_busy", status: .conflict, detail: error.description)
        } catch let error as AppStoreServerAPIError {
            try await caller.audit(action: "run_reconciler", detail: ["outcome": "apple_unavailable"])
            throw ConsoleError(code: "apple_unavailable", status: .serviceUnavailable, detail: error.description)
        }
    }
}

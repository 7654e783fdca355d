import Foundation
import Hummingbird
import Ledger

extension ConsoleRoutes {
    /// Audit records per page (and the most admin-API grants one page shows).
    static var auditPageSize: Int { 100 }

    /// `GET /console/audit?actor=…&before=…` (admin): the audit log, newest first, with the
    /// grants made through the admin API merged in by time. A page holds up to
    /// ``auditPageSize`` records of the console's log and the admin-API grants made between
    /// its oldest record and the previous page's (the first page: up to now; the last: from
    /// the first), at most ``auditPageSize`` of them.
    func addAuditPage() {
        let core = core
        let pages = SupportPages(core: core)
        page("audit", role: .admin) { request, _, caller in
            let actor = request.uri.queryParameters["actor"].map {
                String($0).trimmingCharacters(in: .whitespaces)
            }.flatMap { $0.isEmpty ? nil : ConsoleText.printable(String($0.prefix(64))) }
            let before = request.uri.queryParameters["before"].flatMap { Int64(String($0)) }
            let records = try await core.store.auditRecords(
                beforeId: before, limit: Self.auditPageSize + 1, actor: actor)
            let shown = Array(records.prefix(Self.auditPageSize))
            let hasMore = records.count > Self.auditPageSize
            let grants = try await Self.adminGrants(
                core.store, after: hasMore ? shown.last?.createdAt : nil, beforeRecord: before, actor: actor)
            try await caller.audit(action: "view_audit", target: actor)
            let rows = (shown.map(AuditRow.init) + grants.map(AuditRow.init(adminGrant:)))
                .sorted { $0.createdAt > $1.createdAt }
            var values: [String: any Sendable] = [
                "records": rows.map {
                    $0.values(core.renderer, language: caller.language, detail: pages.detailText($0.detail, caller))
                },
                "empty": rows.isEmpty,
            ]
            if let actor { values["actorFilter"] = actor }
            if hasMore, let last = shown.last?.id {
                values["nextPage"] =
                    "/console/audit?before=\(last)" + (actor.map { "&actor=" + ConsoleURL.queryValue($0) } ?? "")
            }
            return ConsolePage(template: "audit", titleKey: "title_audit", values: values)
        }
    }

    /// The admin-API grants of one audit page (by `actor` only, when given): at or after
    /// `after` (from the first when `nil`, the last page) and before the record
    /// `beforeRecord` (up to now when `nil`, the first page), newest first.
    private static func adminGrants(_ store: any LedgerStore, after: Date?, beforeRecord: Int64?, actor: String?)
        async throws -> [HistoryEvent]
    {
        var until: Date?
        if let beforeRecord {
            // The previous page's oldest record (the newest at or below its id), where that
            // page's grants stopped.
            let previous = try await store.auditRecords(
                beforeId: min(beforeRecord, .max - 1) + 1, limit: 1, actor: actor)
            guard let record = previous.first else { return [] }
            until = record.createdAt
        }
        let grants = try await store.manualGrants(
            via: ManualGrantPath.adminAPI, notBefore: after, before: until, limit: auditPageSize)
        return grants.filter { actor == nil || $0.detail["actor"] == actor }
    }
}

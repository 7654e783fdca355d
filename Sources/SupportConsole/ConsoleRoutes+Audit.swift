import Foundation
import Hummingbird
import Ledger

extension ConsoleRoutes {
    /// Audit records per page.
    static var auditPageSize: Int { 100 }

    /// `GET /console/audit?actor=…&before=…` (admin): the audit log, newest first.
    func addAuditPage() {
        let core = core
        page("audit", role: .admin) { request, _, caller in
            let actor = request.uri.queryParameters["actor"].map {
                String($0).trimmingCharacters(in: .whitespaces)
            }.flatMap { $0.isEmpty ? nil : ConsoleText.printable(String($0.prefix(64))) }
            let before = request.uri.queryParameters["before"].flatMap { Int64(String($0)) }
            let records = try await core.store.auditRecords(
                beforeId: before, limit: Self.auditPageSize + 1, actor: actor)
            try await caller.audit(action: "view_audit", target: actor)
            let shown = records.prefix(Self.auditPageSize)
            var values: [String: any Sendable] = [
                "records": shown.map { Self.auditRow($0, language: caller.language) },
                "empty": shown.isEmpty,
            ]
            if let actor { values["actorFilter"] = actor }
            if records.count > Self.auditPageSize, let last = shown.last?.id {
                values["nextPage"] =
                    "/console/audit?before=\(last)" + (actor.map { "&actor=" + ConsoleURL.queryValue($0) } ?? "")
            }
            return ConsolePage(template: "audit", titleKey: "title_audit", values: values)
        }
    }

    private static func auditRow(_ record: AuditRecord, language: ConsoleLanguage) -> [String: any Sendable] {
        var row: [String: any Sendable] = [
            "id": record.id.map { String($0) } ?? "",
            "time": ConsoleFormat.date(record.createdAt, language: language),
            "actor": record.actor,
            "actorLink": "/console/audit?actor=" + ConsoleURL.queryValue(record.actor),
            "action": record.action,
            "address": record.address,
            "detail": record.detail.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "),
        ]
        if let target = record.target { row["target"] = target }
        return row
    }
}

import PostgresNIO

extension PostgresLedgerStore: BulkLoading {
    /// Drops the non-unique indexes of `tables` and disables the triggers of
    /// ``BulkLoadRebuild/of(_:)`` in one transaction, and returns the indexes' definitions
    /// (`pg_get_indexdef`), the rebuilds' statements, the triggers enabled again, then a
    /// `VACUUM (ANALYZE)` of the tables and the rebuilt ones: a filled ledger is left as an old
    /// one is kept, its pages marked visible and its statistics the planner's, so that
    /// autovacuum does not start on it while it is measured.
    func beginBulkLoad(of tables: [String]) async throws -> [String] {
        let placeholders = Array(repeating: "?", count: tables.count).joined(separator: ", ")
        let indexes = LedgerStatement(
            """
            SELECT ix.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
            FROM pg_index i
            JOIN pg_class ix ON ix.oid = i.indexrelid
            JOIN pg_class tb ON tb.oid = i.indrelid
            WHERE tb.relnamespace = to_regnamespace(current_schema())
              AND tb.relname IN (\(placeholders)) AND NOT i.indisunique
            ORDER BY ix.relname
            """, tables.map { .text($0) })
        let found = try await read(
            .rows(indexes) { row in (name: try row.requiredText("name"), definition: try row.requiredText("definition"))
            })
        let rebuilds = BulkLoadRebuild.of(tables)
        let triggers = rebuilds.flatMap(\.triggers)
        try await transaction { connection in
            for index in found {
                try await connection.run(LedgerStatement("DROP INDEX \"\(index.name)\""), logger: self.logger)
            }
            for trigger in triggers {
                try await connection.run(
                    LedgerStatement("ALTER TABLE \(trigger.table) DISABLE TRIGGER \(trigger.name)"), logger: self.logger
                )
            }
        }
        return found.map(\.definition) + rebuilds.map(\.statement)
            + triggers.map { "ALTER TABLE \($0.table) ENABLE TRIGGER \($0.name)" }
            + ["VACUUM (ANALYZE) " + (tables + rebuilds.map(\.table)).joined(separator: ", ")]
    }

    /// Runs `statements` in order on one connection, each committing by itself (`VACUUM`
    /// cannot run in a transaction), with room to sort an index in memory
    /// (`maintenance_work_mem`, set back after).
    func finishBulkLoad(rebuilding statements: [String]) async throws {
        try await onConnection { connection in
            try await connection.run(LedgerStatement("SET maintenance_work_mem = '512MB'"), logger: self.logger)
            for statement in statements {
                try await connection.run(LedgerStatement(statement), logger: self.logger)
            }
            try await connection.run(LedgerStatement("RESET maintenance_work_mem"), logger: self.logger)
        }
    }

    /// Copies every table's rows (`COPY … FROM STDIN`, text format) in one transaction,
    /// which does not wait for the disk at its commit (`synchronous_commit = off`: a fill
    /// cut short is thrown away whole).
    func bulkLoad(_ tables: [BulkRows]) async throws {
        try await transaction { connection in
            try await connection.run(LedgerStatement("SET LOCAL synchronous_commit = off"), logger: self.logger)
            for rows in tables where rows.count > 0 {
                try await connection.copyFrom(table: rows.table, columns: rows.columns, logger: self.logger) { writer in
                    var buffer = ByteBuffer()
                    var column = 0
                    for value in rows.values {
                        if column > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
                        value.writeCopyText(to: &buffer)
                        column += 1
                        if column == rows.columns.count {
                            buffer.writeInteger(UInt8(ascii: "\n"))
                            column = 0
                            if buffer.readableBytes >= 1 << 20 {
                                try await writer.write(buffer)
                                buffer.clear()
                            }
                        }
                    }
                    if buffer.readableBytes > 0 { try await writer.write(buffer) }
                }
            }
        }
    }
}

extension BulkValue {
    /// Writes the value in `COPY`'s text format: NULL as `\N`, a backslash and every control
    /// character in text escaped, a time as a UTC `timestamptz` literal.
    fileprivate func writeCopyText(to buffer: inout ByteBuffer) {
        switch self {
        case .null:
            buffer.writeStaticString("\\N")
        case .integer(let integer):
            buffer.writeString(String(integer))
        case .milliseconds(let milliseconds):
            buffer.writeString(CopyTimestamp.text(milliseconds: milliseconds))
        case .text(let text):
            guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 < 0x20 }) else {
                buffer.writeString(text)
                return
            }
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
                case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
                case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
                case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
                case ..<0x20: buffer.writeString("\\x" + String(byte, radix: 16))
                default: buffer.writeInteger(byte)
                }
            }
        }
    }
}

/// Epoch milliseconds as a `timestamptz` literal in UTC (`2026-11-29 20:15:03.123+00`),
/// computed without a date formatter: a fill writes tens of millions of them.
enum CopyTimestamp {
    static func text(milliseconds: Int64) -> String {
        let (days, dayMilliseconds) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        let seconds = dayMilliseconds / 1000
        return
            "\(year)-\(pad(month))-\(pad(day)) \(pad(seconds / 3600)):\(pad(seconds / 60 % 60)):\(pad(seconds % 60))."
            + pad(dayMilliseconds % 1000, width: 3) + "+00"
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
    /// days-to-civil algorithm).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, width: Int = 2) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

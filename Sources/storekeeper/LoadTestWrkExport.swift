import Foundation

/// What `loadtest --prepared N --export-wrk DIR` wrote and how to run wrk on it: the
/// prepared reports, one a line, for `Scripts/perf/wrk-report.lua`, and the emulator's
/// faults to put back once wrk has reported them.
struct LoadTestWrkExport: Encodable {
    /// The file of prepared reports in the export folder: one line per purchase, the
    /// player's bearer token, a tab, and the JSON body of its `POST /v1/purchases`.
    static let purchasesFileName = "purchases.tsv"
    /// The file of the emulator's faults before the run (`PUT /emulator/v1/faults` them back).
    static let faultsFileName = "faults-before.json"
    /// Where the wrk script lives, relative to a StoreKeeper checkout.
    static let script = "Scripts/perf/wrk-report.lua"

    let mode = "export-wrk"
    var url: String
    var prepared: Int
    var preparationSeconds: Double
    var purchasesFile: String
    var faultsFile: String
    /// The server's pid (for its CPU time around wrk), when known.
    var serverPid: Int32?
    /// How the server's pid was found, or why it is unknown.
    var serverNote: String
    /// One P-256 verification, timed in this process after the preparation.
    var floor: LoadTestFloor
    /// The wrk command that reports every prepared purchase once.
    var wrkCommand: String
    /// The command that puts the emulator's faults back (its notifications are off until then).
    var restoreFaultsCommand: String

    /// Writes `purchases`, in order, and `previousFaults` into `folder` (made if missing), and
    /// describes them with the wrk command for `connections` connections.
    ///
    /// - Throws: ``LoadTestClient/Failure`` when a file cannot be written or a line would
    ///   not be one line of two fields.
    static func write(
        _ purchases: [PreparedPurchase], previousFaults: Data, to folder: URL, url: String, connections: Int
    ) throws(LoadTestClient.Failure) -> (purchasesFile: URL, faultsFile: URL, wrkCommand: String, restore: String) {
        var lines = Data()
        let encoder = JSONEncoder()
        for purchase in purchases {
            let body: Data
            do {
                body = try encoder.encode(
                    LoadTestWorker.ReportRequest(
                        signedTransaction: purchase.signedTransaction, orderId: purchase.orderId))
            } catch {
                throw LoadTestClient.Failure(kind: "export: unencodable report")
            }
            let line = purchase.token + "\t" + String(decoding: body, as: UTF8.self)
            guard !line.contains(where: \.isNewline), line.count(where: { $0 == "\t" }) == 1 else {
                throw LoadTestClient.Failure(kind: "export: a token or report holds a tab or a line break")
            }
            lines.append(contentsOf: (line + "\n").utf8)
        }
        let purchasesFile = folder.appendingPathComponent(purchasesFileName)
        let faultsFile = folder.appendingPathComponent(faultsFileName)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try lines.write(to: purchasesFile, options: .atomic)
            try previousFaults.write(to: faultsFile, options: .atomic)
        } catch {
            throw LoadTestClient.Failure(kind: "export: cannot write \(folder.path): \(error.localizedDescription)")
        }
        let threads = min(connections, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let wrk = [
            "wrk", "--threads", "\(threads)", "--connections", "\(connections)", "--duration", "600s", "--timeout",
            "30s", "--latency", "--script", script, url, "--", purchasesFile.path, "\(threads)",
        ]
        let restore = [
            "curl", "-sSf", "-X", "PUT", "-H", "Content-Type: application/json", "--data-binary",
            "@" + faultsFile.path, url + LoadTestNotificationSwitch.path,
        ]
        return (
            purchasesFile, faultsFile, wrk.map(shellQuoted).joined(separator: " "),
            restore.map(shellQuoted).joined(separator: " ")
        )
    }

    /// The export for people.
    var text: String {
        [
            "exported \(prepared) prepared purchases to \(purchasesFile) (token, tab, POST /v1/purchases body; "
                + String(format: "prepared in %.1f s; emulator notifications still off)", preparationSeconds),
            serverPid.map { "server: pid \($0) (\(serverNote))" } ?? "server CPU: unknown (\(serverNote))",
            String(
                format: "P-256 floor: %.1f µs per verify (p50; mean %.1f µs, %d verifies of a %d-byte signing input)",
                floor.p50Microseconds, floor.meanMicroseconds, floor.verifies, floor.signingInputBytes),
            "report them, each once (from the StoreKeeper checkout; wrk stops when every thread has sent its share):",
            "  " + wrkCommand,
            "then put the emulator's faults back:",
            "  " + restoreFaultsCommand,
            "(Scripts/perf/wrk-prepared.sh does all of this and checks every purchase was delivered once)",
        ].joined(separator: "\n")
    }

    /// The export as one JSON object.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// `word` for a POSIX shell: as is when it holds only safe characters, else in single quotes.
    private static func shellQuoted(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:=@%+,".contains($0)) }
        return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

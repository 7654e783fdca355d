import ArgumentParser
import Foundation

extension LoadTestCommand {
    /// `--prepared N --export-wrk DIR`: prepares `count` purchases as `--prepared` does,
    /// untimed, then writes their reports into `folder` for wrk instead of sending them,
    /// times the P-256 floor and prints the wrk command.
    ///
    /// The emulator's notifications stay off (and its notification history failing), or a
    /// notification or the server's reconciler would deliver the purchases before wrk
    /// reports them: the previous faults are written to the folder, to be put back after
    /// wrk. They are put back here only when the export fails.
    func runExport(_ count: Int, to folder: URL, server: LoadTestServerProcess) async throws {
        let client = LoadTestClient(baseURL: baseURL, connections: concurrency)
        var silenced: Data?
        do {
            let previousFaults = try await LoadTestNotificationSwitch.silence(using: client)
            silenced = previousFaults
            let (shares, preparation) = try await prepareAll(count, client: client).get()
            let purchases = Self.inPreparationOrder(shares)
            guard purchases.count == count else {
                throw LoadTestClient.Failure(kind: "prepared \(purchases.count) purchases of \(count)")
            }
            let written = try LoadTestWrkExport.write(
                purchases, previousFaults: previousFaults, to: folder, url: baseURL, connections: concurrency)
            log("exported; timing the P-256 floor")
            let floor = try await LoadTestFloor.measure(seconds: Self.floorSeconds)
            try await client.shutdown()
            let (seconds, attoseconds) = preparation.components
            let export = LoadTestWrkExport(
                url: baseURL, prepared: count, preparationSeconds: Double(seconds) + Double(attoseconds) / 1e18,
                purchasesFile: written.purchasesFile.path, faultsFile: written.faultsFile.path, serverPid: server.pid,
                serverNote: server.note, floor: floor,
                wrkCommand: written.wrkCommand, restoreFaultsCommand: written.restore)
            print(json ? try export.json() : export.text)
        } catch {
            if let silenced { try? await LoadTestNotificationSwitch.restore(silenced, using: client) }
            try? await client.shutdown()
            log("loadtest --export-wrk: " + ((error as? LoadTestClient.Failure)?.kind ?? "\(error)"))
            throw ExitCode.rejected
        }
    }

    /// The workers' shares merged back into the order the purchases were dealt in:
    /// purchase i is the (i / workers)-th of worker i % workers.
    static func inPreparationOrder(_ shares: [[PreparedPurchase]]) -> [PreparedPurchase] {
        let longest = shares.map(\.count).max() ?? 0
        return (0..<longest).flatMap { round in shares.compactMap { round < $0.count ? $0[round] : nil } }
    }
}

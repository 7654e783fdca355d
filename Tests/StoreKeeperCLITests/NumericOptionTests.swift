import Foundation
import Testing

/// Numeric options no `Duration` or `Int` holds are usage errors (status 2) naming the
/// option, never a crash.
struct NumericOptionTests {
    @Test(arguments: [
        (["bench", "--seconds", "inf"], "--seconds"),
        (["bench", "--seconds", "1e300"], "--seconds"),
        (["loadtest", "--seconds", "nan"], "--seconds"),
        (["loadtest", "--seconds", "1e300"], "--seconds"),
        (["demo", "--outage", "1e300"], "--outage"),
        (["demo", "--outage=-1"], "--outage"),
        (["emulator", "--time-scale", "inf"], "--time-scale"),
        (["emulator", "--subscription-time-scale", "2"], "--subscription-time-scale"),
        (["emulator", "--subscription-time-scale", "nan"], "--subscription-time-scale"),
        (["emulator", "--play-push-url", "ftp://example.com/push"], "--play-push"),
        (["emulator", "--play-push-url", "http://127.0.0.1/push", "--play-push-email", "nobody"], "--play-push"),
        (["emulator", "--play-push-audience", ""], "--play-push"),
        (["token", "--player", "alice", "--lifetime", "nan"], "--lifetime"),
        (["simulate", "--reconciler-interval", "inf"], "reconciler interval"),
        (["simulate", "--faults", "="], "unknown fault"),
    ])
    func isAUsageError(arguments: [String], named: String) async throws {
        let output = try await CommandLineRunner.run(arguments)
        #expect(output.status == 2, "\(arguments): \(output.stderr)")
        #expect(output.stderr.contains(named), "\(arguments): \(output.stderr)")
    }
}

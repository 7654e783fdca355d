import AppStoreAPI
import Foundation
import PlayModel
import Synchronization

/// The acknowledgement failures of a run: the server's calls to Google's `:acknowledge` and
/// `:consume` answered 503 `UNAVAILABLE` (Google's envelope) at
/// ``FaultKind/playAcknowledgementFailure``'s rate, at the one place the server reaches
/// "Google" (the dev stack's interceptor of its outgoing requests). Every other request
/// passes.
final class PlayAcknowledgementFaults: Sendable {
    private struct State {
        var dice: FaultDice
        var on = true
        var injected = 0
    }

    private let state: Mutex<State>

    /// Failures at `rates`' rate, rolled from `seed`.
    init(rates: FaultRates, seed: UInt64) {
        state = Mutex(State(dice: FaultDice(rates: rates, seed: seed, salt: 0xAC4_0000)))
    }

    /// How many calls were failed so far.
    var injected: Int { state.withLock { $0.injected } }

    /// Ends the failures, as the run quiesces: every later call reaches Google. At a rate
    /// of 1 they never end: a server that cannot acknowledge at all, which Google's
    /// three-day rule must catch.
    func calmDown() {
        state.withLock { $0.on = $0.dice.rates[.playAcknowledgementFailure] >= 1 }
    }

    /// The interceptor's answer to `request`: a 503 for an acknowledgement or consumption the
    /// dice fail, `nil` (send it on) for anything else.
    func answer(_ request: HTTPRequestData) -> HTTPResponseData? {
        let path = request.url.path
        guard request.method == .post, path.hasSuffix(":acknowledge") || path.hasSuffix(":consume") else {
            return nil
        }
        let fails = state.withLock { state in
            guard state.on, state.dice.strikes(.playAcknowledgementFailure) else { return false }
            state.injected += 1
            return true
        }
        guard fails, let body = try? JSONEncoder().encode(Self.unavailable) else { return nil }
        return HTTPResponseData(status: 503, headers: ["Content-Type": "application/json; charset=UTF-8"], body: body)
    }

    /// Google's answer from a backend that cannot serve the request now.
    private static let unavailable = GoogleErrorResponse(
        error: GoogleError(
            code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE",
            errors: [
                GoogleErrorDetail(
                    domain: "global", reason: "backendError", message: "The service is currently unavailable.")
            ]))
}

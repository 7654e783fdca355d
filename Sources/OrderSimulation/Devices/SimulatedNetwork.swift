import Foundation
import PurchaseSDK

/// The network between one device and the purchase server: requests dropped before they
/// arrive, and answers lost after the server acted (the device times out).
struct SimulatedNetwork: NetworkTransport {
    let base: any NetworkTransport
    let weather: NetworkWeather

    func send(_ request: NetworkRequest) async throws -> NetworkResponse {
        switch await weather.next() {
        case nil:
            return try await base.send(request)
        case .networkDrop?:
            throw URLError(.notConnectedToInternet)
        case _?:
            _ = try? await base.send(request)
            throw URLError(.timedOut)
        }
    }
}

/// The seeded fault decisions of one device's network, on until the run quiesces.
actor NetworkWeather {
    private var dice: FaultDice
    private let tally: FaultTally
    private var calm = false

    init(dice: FaultDice, tally: FaultTally) {
        self.dice = dice
        self.tally = tally
    }

    /// No more faults from now on.
    func calmDown() {
        calm = true
    }

    /// The fault for the next request, if any.
    func next() async -> FaultKind? {
        guard !calm else { return nil }
        for kind in [FaultKind.networkDrop, .networkTimeout] where dice.strikes(kind) {
            await tally.count(kind)
            return kind
        }
        return nil
    }
}

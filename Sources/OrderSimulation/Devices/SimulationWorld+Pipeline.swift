import AsyncHTTPClient
import Foundation
import PurchaseSDK
import PurchaseServer

extension SimulationWorld {
    /// The SDK pipeline of one app launch on phone `deviceId` (the `index`-th of its kind),
    /// whatever store it buys through: its journal in `appDirectory`, mirrored in
    /// `keychainDirectory` and recorded on the run's timeline; the server instance the phone
    /// talks to, through the phone's own connections and network weather; the run's retry
    /// policy; and `hooks` at every step boundary.
    func pipeline(
        store: any StoreClient, deviceId: String, index: Int, appDirectory: URL, keychainDirectory: URL,
        storage: PhoneStorage, http: HTTPClient, weather: NetworkWeather, playerId: String?, hooks: PipelineHooks
    ) -> PurchasePipeline {
        let secret = playerSecret
        let configuration = PipelineConfiguration(
            store: store,
            journal: RecordingPurchaseJournal(
                base: MirroredPurchaseJournal(
                    primary: FilePurchaseJournal(url: appDirectory.appendingPathComponent("journal")),
                    mirror: FilePurchaseJournal(url: keychainDirectory.appendingPathComponent("journal"))),
                device: deviceId, timeline: timeline, storage: storage),
            server: PurchaseServerClient(
                baseURL: serverURLs[index % serverURLs.count],
                transport: SimulatedNetwork(base: DeviceHTTPTransport(client: http), weather: weather)),
            tokens: { PlayerTokenVerifier.issue(playerId: $0, secret: secret) },
            retry: retry, hooks: hooks)
        return PurchasePipeline(configuration: configuration, playerId: playerId)
    }
}

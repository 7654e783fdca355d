import PurchaseSDK

/// A device's journal that also tells the run's ``JournalTimeline`` every state it
/// writes, once the write is durable. The journal's work runs on the phone's
/// ``PhoneStorage``, off the cooperative thread pool the whole run shares.
struct RecordingPurchaseJournal: PurchaseJournal {
    let base: any PurchaseJournal
    let device: String
    let timeline: JournalTimeline
    let storage: PhoneStorage

    func load() async throws -> JournalContents {
        try await withTaskExecutorPreference(storage) { try await base.load() }
    }

    func write(_ record: PurchaseRecord) async throws {
        try await withTaskExecutorPreference(storage) { try await base.write(record) }
        await timeline.record(record, device: device)
    }
}

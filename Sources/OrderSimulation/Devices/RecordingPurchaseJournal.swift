import PurchaseSDK

/// A device's journal that also tells the run's ``JournalTimeline`` every state it
/// writes, once the write is durable.
struct RecordingPurchaseJournal: PurchaseJournal {
    let base: any PurchaseJournal
    let device: String
    let timeline: JournalTimeline

    func load() async throws -> JournalContents {
        try await base.load()
    }

    func write(_ record: PurchaseRecord) async throws {
        try await base.write(record)
        await timeline.record(record, device: device)
    }
}

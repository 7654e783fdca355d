import Foundation

extension PlayEmulator {
    /// Runs `body` on a copy of the state settled up to ``now`` (``settle(_:)``) and, when
    /// the saved part changed, appends what changed to the log (``PlayStateFile``) before
    /// making the copy the state, all under the state's lock. An append that fails leaves
    /// the state as it was and throws `storageFailure(error)`: a change is never reported
    /// done that a restart would forget. Reads go through here too, since settling can void
    /// a purchase.
    func update<Result: Sendable, Failure: Error>(
        storageFailure: (any Error) -> Failure, _ body: (inout PlayState) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.withLock { state throws(Failure) -> Result in
            var copy = state
            settle(&copy)
            let result = try body(&copy)
            do {
                try stateFile.append(copy.unsavedChange(generation: stateFile.generation))
            } catch {
                throw storageFailure(error)
            }
            copy.markSaved()
            state = copy
            return result
        }
    }
}

extension PlayEmulatorError {
    /// 503 `storage_unavailable`: the change could not be saved (a full disk) and was not made.
    static func storageUnavailable(_ error: any Error) -> PlayEmulatorError {
        PlayEmulatorError(
            "storage_unavailable", "the Play state could not be saved, nothing changed: \(error)", status: 503)
    }
}

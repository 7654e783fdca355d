import Foundation

extension PlayEmulator {
    /// Runs `body` on a copy of the state settled up to ``now`` (``settle(_:)``) and, when
    /// the purchases or voided records changed, saves the copy (``PlayStateFile``) before
    /// making it the state, all under the state's lock. A save that fails leaves the state
    /// as it was and throws `storageFailure(error)`: a change is never reported done that
    /// a restart would forget. Reads go through here too, since settling can void a
    /// purchase.
    func update<Result: Sendable, Failure: Error>(
        storageFailure: (any Error) -> Failure, _ body: (inout PlayState) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.withLock { state throws(Failure) -> Result in
            var copy = state
            settle(&copy)
            let result = try body(&copy)
            if copy.durablyDiffers(from: state) {
                do {
                    try stateFile.save(copy)
                } catch {
                    throw storageFailure(error)
                }
            }
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

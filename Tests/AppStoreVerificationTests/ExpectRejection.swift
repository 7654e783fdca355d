import AppStoreVerification
import Testing

/// Expects `body` to be rejected with `code`.
func expectRejection(
    _ code: VerificationError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async {
    do {
        try await body()
        Issue.record("expected rejection \(code.rawValue), but the data verified", sourceLocation: sourceLocation)
    } catch let error as VerificationError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected VerificationError \(code.rawValue), got \(error)", sourceLocation: sourceLocation)
    }
}

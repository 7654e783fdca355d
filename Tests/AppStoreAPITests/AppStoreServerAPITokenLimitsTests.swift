import AppStoreAPI
import AppStoreModel
import AppStoreSigning
import AppStoreVerification
import Foundation
import Testing

/// Signed tokens whose claims or checking time no `Int64` or `Double` conversion can hold:
/// refused with a code, never a crash.
struct AppStoreServerAPITokenLimitsTests {
    /// Verifies `token` at `now` and returns the rejection code, or `nil` when accepted.
    private func rejection(_ token: String, at now: Date = Fixture.now) throws -> AppStoreServerAPITokenError.Code? {
        do {
            _ = try Fixture.verifier(for: try Fixture.key()).verify(token, at: now)
            return nil
        } catch let error as AppStoreServerAPITokenError {
            return error.code
        }
    }

    private func token(issuedAt: Int64, expiresAt: Int64) throws -> String {
        try Fixture.key().signToken(
            claims: AppStoreServerAPIClaims(
                issuerId: Fixture.issuerId, issuedAt: issuedAt, expiresAt: expiresAt, bundleId: Fixture.bundleId))
    }

    @Test("exp - iat beyond Int64 is lifetime_too_long, however far apart the two are")
    func lifetimeOverflow() throws {
        #expect(try rejection(token(issuedAt: .min, expiresAt: .max)) == .lifetimeTooLong)
        #expect(try rejection(token(issuedAt: .max, expiresAt: .min)) == .lifetimeTooLong)
    }

    @Test("a token checked at a date Int64 seconds cannot hold is expired or not yet valid, not a crash")
    func farCheckingTimes() throws {
        let iat = Int64(Fixture.now.timeIntervalSince1970)
        let valid = try token(issuedAt: iat, expiresAt: iat + 1200)
        #expect(try rejection(valid, at: Date(timeIntervalSince1970: 1e300)) == .tokenExpired)
        #expect(try rejection(valid, at: Date(timeIntervalSince1970: -1e300)) == .notYetValid)
    }
}

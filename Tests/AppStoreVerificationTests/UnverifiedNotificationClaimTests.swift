import AppStoreSigning
import AppStoreVerification
import Foundation
import Testing

/// What a notification's payload claims, read without its signature: the UUID it names and,
/// for estimates only, its `signedDate`.
struct UnverifiedNotificationClaimTests {
    let jws = try! JWSSigner(chain: OwnVectors.es256Chain).sign(OwnVectors.transaction())

    private func claim(_ payload: String) -> UnverifiedNotificationClaim? {
        UnverifiedNotificationClaim(signedPayload: OwnVectors.replacingSegment(1, of: jws, with: Data(payload.utf8)))
    }

    @Test func theUUIDAndTheSignedDate() {
        let read = claim(#"{"notificationUUID":"u-1","signedDate":1796000000123,"data":{}}"#)
        #expect(read?.notificationUUID == "u-1")
        #expect(read?.signedDate == 1_796_000_000_123)
    }

    @Test func aDateOfAnotherShapeCostsTheDateOnly() {
        for date in [#""soon""#, "1.5", "null", "1e400"] {
            let read = claim(#"{"notificationUUID":"u-2","signedDate":\#(date)}"#)
            #expect(read?.notificationUUID == "u-2", "\(date)")
            #expect(read?.signedDate == nil, "\(date)")
        }
        #expect(claim(#"{"notificationUUID":"u-3"}"#)?.signedDate == nil)
    }

    @Test func noUUIDNoClaim() {
        #expect(claim(#"{"signedDate":1}"#) == nil)
        #expect(claim(#"{"notificationUUID":"","signedDate":1}"#) == nil)
        #expect(claim("[]") == nil)
    }
}

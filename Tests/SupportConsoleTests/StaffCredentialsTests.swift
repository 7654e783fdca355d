import Foundation
import SupportConsole
import Testing

/// The second factor against RFC 6238's own test vectors (SHA-1, secret
/// "12345678901234567890" as ASCII bytes; the RFC's eight digits, of which an authenticator
/// app shows the last six).
@Suite("Staff credentials")
struct StaffCredentialsTests {
    private let secret = "12345678901234567890"

    @Test("codes are RFC 6238's, zero-padded to six digits")
    func rfcVectors() {
        #expect(StaffCredentials.totpCode(secret: secret, at: Date(timeIntervalSince1970: 59)) == "287082")
        #expect(StaffCredentials.totpCode(secret: secret, at: Date(timeIntervalSince1970: 1_111_111_109)) == "081804")
        #expect(StaffCredentials.totpCode(secret: secret, at: Date(timeIntervalSince1970: 2_000_000_000)) == "279037")
    }

    @Test("a code is accepted one step either side and only as six ASCII digits")
    func verification() {
        let date = Date(timeIntervalSince1970: 1_111_111_109)
        #expect(StaffCredentials.verifyTOTP("081804", secret: secret, at: date))
        #expect(StaffCredentials.verifyTOTP("081 804", secret: secret, at: date))
        #expect(StaffCredentials.verifyTOTP("081804", secret: secret, at: date.addingTimeInterval(30)))
        #expect(StaffCredentials.verifyTOTP("081804", secret: secret, at: date.addingTimeInterval(-30)))
        #expect(!StaffCredentials.verifyTOTP("081804", secret: secret, at: date.addingTimeInterval(90)))
        for forged in ["+81804", "81804", "0818040", "08180４", "-81804", "", "abcdef"] {
            #expect(!StaffCredentials.verifyTOTP(forged, secret: secret, at: date), "\(forged)")
        }
    }
}

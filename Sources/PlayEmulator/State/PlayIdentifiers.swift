import AppStoreSigning
import Foundation

/// Random identifiers shaped like Google's.
enum PlayIdentifiers {
    /// An order id like Google's: `GPA.` and groups of 4, 4, 4 and 5 digits.
    static func orderId() -> String {
        func digits(_ count: Int) -> String { String((0..<count).map { _ in "0123456789".randomElement()! }) }
        return "GPA.\(digits(4))-\(digits(4))-\(digits(4))-\(digits(5))"
    }

    /// An opaque purchase token: letters, then a `.`-separated tail, as Google's look
    /// (Google's are longer; a server must treat them as opaque up to 150+ characters).
    static func purchaseToken() -> String {
        let letters = "abcdefghijklmnopqrstuvwxyz"
        let head = String((0..<24).map { _ in letters.randomElement()! })
        return head + ".AO-J1O" + randomURLSafe(bytes: 60)
    }

    /// A Pub/Sub message id like Google's: 16 decimal digits.
    static func messageId() -> String {
        String((1...9).randomElement()!) + String((0..<15).map { _ in "0123456789".randomElement()! })
    }

    /// An access token like Google's: `ya29.` and random base64url.
    static func accessToken() -> String {
        "ya29." + randomURLSafe(bytes: 48)
    }

    private static func randomURLSafe(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let data = Data((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) })
        return data.base64URLEncodedString
    }
}

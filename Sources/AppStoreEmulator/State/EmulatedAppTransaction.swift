import AppStoreModel
import Foundation

/// An Apple account's download of the app (StoreKit's `AppTransaction`): in the emulator,
/// one per device and environment, from the account's first purchase on.
///
/// Its ``appTransactionId`` is stable and unique, as Apple's: every transaction and renewal
/// info of the account carries it, and Get App Transaction Info answers with it. The
/// emulator derives it from the account's transactions (each keeps its app transaction's
/// id), so the journal holds nothing more.
struct EmulatedAppTransaction: Hashable, Sendable {
    /// Apple's `appTransactionId`: 18 decimal digits starting with 7, never the length of a
    /// transaction id (16).
    var appTransactionId: String
    var deviceId: String
    var environment: AppStoreEnvironment
    /// When the account first bought in the app, milliseconds since 1970: the emulator has
    /// no download before it.
    var originalPurchaseDate: Int64

    /// The app transaction id minted `number`-th.
    static func appTransactionId(number: Int) -> String {
        "7" + String(format: "%017d", number)
    }

    /// The signed app transaction payload Apple would issue now.
    func payload(bundleId: String, appAppleId: Int64, signedAt now: Date) -> JWSAppTransactionDecodedPayload {
        let signed = Int64(now.timeIntervalSince1970 * 1000)
        return JWSAppTransactionDecodedPayload(
            receiptType: environment,
            appAppleId: appAppleId,
            bundleId: bundleId,
            applicationVersion: "1",
            // App Store Connect numbers each version it ships (none, for the emulator's app);
            // the sandbox's is always 0.
            versionExternalIdentifier: environment == .sandbox ? 0 : nil,
            receiptCreationDate: signed,
            originalPurchaseDate: originalPurchaseDate,
            originalApplicationVersion: "1.0",
            appTransactionId: appTransactionId,
            originalPlatform: .iOS,
            signedDate: signed
        )
    }
}

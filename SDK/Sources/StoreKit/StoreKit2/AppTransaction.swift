import Foundation

/// Information that represents the customer's purchase of the app, cryptographically
/// signed by the App Store (the emulator).
///
/// Apple: `struct AppTransaction` (https://developer.apple.com/documentation/storekit/apptransaction).
public struct AppTransaction: Hashable, Sendable, JWSBacked {
    /// The app identifier that App Store Connect generates.
    public let appID: UInt64?
    /// The bundle identifier that the app transaction applies to.
    public let bundleID: String
    /// The app version that the app transaction applies to.
    public let appVersion: String
    /// The app version that the customer originally purchased from the App Store.
    public let originalAppVersion: String
    /// The date the customer originally purchased the app from the App Store.
    public let originalPurchaseDate: Date
    /// The date that the App Store signed the JWS app transaction.
    public let signedDate: Date
    /// The server environment that signs the app transaction.
    public let environment: AppStore.Environment
    /// The unique identifier of the app download transaction.
    public let appTransactionID: String
    /// A JSON representation of the app transaction.
    public let jsonRepresentation: Data

    package let jwsStorage: JWSStorage

    private struct Payload: Decodable {
        var appAppleId: UInt64?
        var bundleId: String?
        var applicationVersion: String?
        var originalApplicationVersion: String?
        var originalPurchaseDate: Double?
        var receiptType: String?
        var environment: String?
        var appTransactionId: String?
    }

    package init(payload data: Data, storage: JWSStorage) throws {
        let payload = try JSONDecoder().decode(Payload.self, from: data)
        appID = payload.appAppleId
        bundleID = payload.bundleId ?? ""
        appVersion = payload.applicationVersion ?? ""
        originalAppVersion = payload.originalApplicationVersion ?? ""
        originalPurchaseDate = Date(milliseconds: payload.originalPurchaseDate ?? 0)
        signedDate = storage.signedDate
        environment = AppStore.Environment(rawValue: payload.receiptType ?? payload.environment ?? "Sandbox")
        appTransactionID = payload.appTransactionId ?? ""
        jsonRepresentation = data
        jwsStorage = storage
    }

    /// Get the app transaction for the app (the emulator keeps one from the account's
    /// first purchase on; before it this throws `StoreKitError.unknown`).
    public static var shared: VerificationResult<AppTransaction> {
        get async throws {
            let client = try StoreKit2Call.client()
            return try await StoreKit2Call.run {
                guard let signed = try client.appTransaction() else { throw StoreKitError.unknown }
                return try SignedPayload.verify(signed, configuration: client.configuration) {
                    try AppTransaction(payload: $0, storage: $1)
                }
            }
        }
    }

    /// Refreshes the app transaction and returns it.
    public static func refresh() async throws -> VerificationResult<AppTransaction> {
        try await shared
    }

    public static func == (lhs: AppTransaction, rhs: AppTransaction) -> Bool {
        lhs.jwsStorage.jws.compact == rhs.jwsStorage.jws.compact
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(jwsStorage.jws.compact)
    }
}

import Crypto
import Foundation
import PlayModel
import PlaySigning
import Synchronization
import _CryptoExtras

/// The Google Play side of the emulator: it sells the catalog's one-time products and
/// auto-renewing subscriptions to simulated devices the way the Play Billing Library
/// reports them, issues a service account and exchanges its OAuth 2.0 JWT assertions for
/// access tokens, and answers the Android Publisher API v3's `purchases.products` get,
/// acknowledge and consume, `purchases.subscriptionsv2` get, cancel and revoke,
/// `purchases.subscriptions` acknowledge and cancel, `orders.refund` and
/// `purchases.voidedpurchases.list`. Pending purchases complete or are canceled from the
/// device side, subscriptions renew, and Google's three-day rule voids a purchase left
/// unacknowledged, on the injected clock ``now``, without any timer. Each of these changes
/// publishes a Real-time developer notification, pushed as Pub/Sub does (an envelope with
/// an OIDC token this emulator signs) through the ``PlayPushSink`` attached to it.
///
/// Its RSA keys (the service account's, the app's license key and the push-signing key)
/// are made on first use, never at start, and kept in the data directory. Purchases,
/// subscriptions, voided records and undelivered notifications are saved there too, each
/// change as it is made (``PlayStateFile``), and read back at start; access tokens
/// live in memory only. Safe from any thread: all state is behind one mutex, and no call holds it
/// across a suspension.
public final class PlayEmulator: Sendable {
    /// The app's package name (the emulator's bundle id).
    public let packageName: String
    /// The base URL clients reach the emulator at, when configured; otherwise each request's
    /// `Host` gives it.
    public let baseURL: URL?

    /// The OAuth scope the Android Publisher API requires.
    public static let androidPublisherScope = "https://www.googleapis.com/auth/androidpublisher"
    /// The service account's email: the `iss` its assertions must carry.
    public static let clientEmail = "storekeeper-play@storekeeper-emulator.iam.gserviceaccount.com"
    /// Seconds an access token lives, as Google says in `expires_in`.
    public static let accessTokenLifetime = 3599

    /// The emulator's clock: what "now" is for every purchase, refund and deadline.
    public let now: @Sendable () -> Date
    /// Multiplies Google's durations (the three days to acknowledge a purchase): 1 is real
    /// time, 1/8640 makes three days last 30 seconds.
    public let periodScale: Double

    let products: @Sendable (String) -> PlayProduct?
    let serviceAccountKey: LazyRSAKey
    let licenseKey: LazyRSAKey
    /// Signs the pushes' OIDC tokens (Google's role in Pub/Sub push authentication).
    let pushSigningKey: LazyRSAKey
    /// Where pushes are sent and how they are authenticated.
    let push = Mutex(PlayPushConfiguration())
    /// What delivers the pushes, once attached.
    let pushSink = Mutex<(any PlayPushSink)?>(nil)
    let state: Mutex<PlayState>
    let stateFile: PlayStateFile

    /// A Play side for `packageName` selling what `products` finds by id.
    ///
    /// - Parameters:
    ///   - dataDirectory: where the keys (`play-service-account-key.pem`,
    ///     `play-license-key.pem`, `play-push-signing-key.pem`), the notifications not yet
    ///     delivered and the purchases and voided records (`play-state.json` and
    ///     `play-state.log`, ``PlayStateFile``) are kept; `nil` keeps them in memory. The
    ///     saved state is read (and its log folded into a new snapshot) here; the keys are
    ///     made or read on first use.
    ///   - baseURL: the emulator's base URL as clients reach it, for the service account's
    ///     `token_uri`; `nil` builds it from each request's `Host` header.
    ///   - periodScale: multiplies Google's durations (the three-day acknowledgement
    ///     window); finite and positive, else 1.
    ///   - now: the clock; tests pass one they move themselves. Nothing runs on a timer:
    ///     deadlines are settled whenever the state is read or changed.
    /// - Throws: ``PlayEmulatorError`` 500 `corrupt_state` when `play-state.json` or a line
    ///   of `play-state.log` (but a torn last one) cannot be read or decoded: the emulator
    ///   does not start rather than overwrite it, as the App Store side refuses a corrupt
    ///   journal; the error of writing the new snapshot.
    public init(
        packageName: String, dataDirectory: URL?, baseURL: URL?, periodScale: Double = 1,
        now: @escaping @Sendable () -> Date = { Date() },
        products: @escaping @Sendable (String) -> PlayProduct?
    ) throws {
        self.packageName = packageName
        self.baseURL = baseURL
        self.periodScale = periodScale.isFinite && periodScale > 0 ? periodScale : 1
        self.now = now
        self.products = products
        serviceAccountKey = LazyRSAKey(file: dataDirectory?.appendingPathComponent("play-service-account-key.pem"))
        licenseKey = LazyRSAKey(file: dataDirectory?.appendingPathComponent("play-license-key.pem"))
        pushSigningKey = LazyRSAKey(file: dataDirectory?.appendingPathComponent("play-push-signing-key.pem"))
        let (stateFile, saved) = try PlayStateFile.load(dataDirectory: dataDirectory)
        self.stateFile = stateFile
        state = Mutex(saved)
    }

    /// The file names of the keys in the data directory, for tools that provide keys
    /// before the first start.
    public static let keyFileNames = [
        "play-service-account-key.pem", "play-license-key.pem", "play-push-signing-key.pem",
    ]

    /// `base` (or ``baseURL`` when configured) with `/token`: the service account's `token_uri`.
    func tokenURI(requestBase base: String) -> String {
        let root = baseURL?.absoluteString ?? base
        return (root.hasSuffix("/") ? String(root.dropLast()) : root) + "/token"
    }

    /// A key's id (the service account's, the push key's): the first 40 hex digits of
    /// SHA-256 of its public key, stable for the key.
    func keyId(of key: _RSA.Signing.PrivateKey) -> String {
        String(
            SHA256.hash(data: key.publicKey.derRepresentation).map { String(format: "%02x", $0) }.joined().prefix(40))
    }

    /// The service-account key file the emulator issues: a PKCS#8 private key, its id,
    /// the client email and `token_uri` = `requestBase`/token (``baseURL`` when configured).
    ///
    /// - Throws: The key's generation or loading error.
    public func serviceAccount(requestBase: String) throws -> ServiceAccountKey {
        let key = try serviceAccountKey.get()
        return ServiceAccountKey(
            projectId: "storekeeper-emulator", privateKeyId: keyId(of: key),
            privateKey: RSAKeyPEM.pkcs8PEM(of: key), clientEmail: Self.clientEmail, clientId: "100000000000000000001",
            authUri: "https://accounts.google.com/o/oauth2/auth", tokenUri: tokenURI(requestBase: requestBase),
            authProviderX509CertUrl: "https://www.googleapis.com/oauth2/v1/certs",
            clientX509CertUrl:
                "https://www.googleapis.com/robot/v1/metadata/x509/storekeeper-play%40storekeeper-emulator.iam.gserviceaccount.com",
            universeDomain: "googleapis.com")
    }

    /// The service account's public key as a JSON Web Key Set: what the token endpoint
    /// verifies assertions with.
    ///
    /// - Throws: The key's generation or loading error.
    public func serviceAccountKeySet() throws -> JSONWebKeySet {
        let key = try serviceAccountKey.get()
        return JSONWebKeySet(keys: [try JSONWebKey(publicKey: key.publicKey, kid: keyId(of: key))])
    }

    /// The app's license key's public half, base64 DER SubjectPublicKeyInfo, as the Play
    /// Console shows it under "Monetization setup".
    ///
    /// - Throws: The key's generation or loading error.
    public func licensePublicKey() throws -> String {
        try licenseKey.get().publicKey.derRepresentation.base64EncodedString()
    }
}

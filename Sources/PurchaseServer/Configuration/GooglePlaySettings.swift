import Foundation
import PlayModel

/// Google Play: the app's package name, the service account the server calls the Play
/// Developer API with, and what authenticates Google's pushes. Play is off without it
/// (``ServerConfiguration/googlePlay`` `nil`, or no package name).
public struct GooglePlaySettings: Codable, Hashable, Sendable {
    /// Google's Android Publisher API, `https://androidpublisher.googleapis.com`.
    public static let defaultAPIBaseURL = URL(string: "https://androidpublisher.googleapis.com")!
    /// Google's published keys for the OIDC tokens of Pub/Sub pushes.
    public static let defaultCertsURL = URL(string: "https://www.googleapis.com/oauth2/v3/certs")!

    /// The app's package name (`com.example.game`): purchases of any other app are refused.
    public var packageName: String
    /// A file holding the service account's JSON key.
    public var serviceAccountFile: String?
    /// The service account's JSON key itself (`STOREKEEPER_GOOGLE_PLAY_SERVICE_ACCOUNT`),
    /// instead of ``serviceAccountFile``.
    public var serviceAccount: String?
    /// Where the Android Publisher API answers; Google's by default, the emulator's in
    /// tests and `--dev`.
    public var apiBaseURL: URL
    /// The longest one call to Google may take, token included, in seconds.
    public var timeoutSeconds: Double
    /// The `aud` Google's Pub/Sub pushes must carry (the push subscription's audience).
    public var pushAudience: String?
    /// The service account email Google's Pub/Sub pushes must be signed for.
    public var pushEmail: String?
    /// Where the keys that sign the pushes' tokens are published.
    public var certsURL: URL

    /// Creates settings.
    public init(
        packageName: String, serviceAccountFile: String? = nil, serviceAccount: String? = nil,
        apiBaseURL: URL = Self.defaultAPIBaseURL, timeoutSeconds: Double = 10, pushAudience: String? = nil,
        pushEmail: String? = nil, certsURL: URL = Self.defaultCertsURL
    ) {
        self.packageName = packageName
        self.serviceAccountFile = serviceAccountFile
        self.serviceAccount = serviceAccount
        self.apiBaseURL = apiBaseURL
        self.timeoutSeconds = timeoutSeconds
        self.pushAudience = pushAudience
        self.pushEmail = pushEmail
        self.certsURL = certsURL
    }

    /// Decodes settings; absent keys keep their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        packageName = try container.decode(String.self, forKey: .packageName)
        serviceAccountFile = try container.decodeIfPresent(String.self, forKey: .serviceAccountFile)
        serviceAccount = try container.decodeIfPresent(String.self, forKey: .serviceAccount)
        apiBaseURL = try container.decodeIfPresent(URL.self, forKey: .apiBaseURL) ?? Self.defaultAPIBaseURL
        timeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .timeoutSeconds) ?? 10
        pushAudience = try container.decodeIfPresent(String.self, forKey: .pushAudience)
        pushEmail = try container.decodeIfPresent(String.self, forKey: .pushEmail)
        certsURL = try container.decodeIfPresent(URL.self, forKey: .certsURL) ?? Self.defaultCertsURL
    }

    /// Problems that stop the server from starting, each a sentence. Reads no file.
    var validationProblems: [String] {
        var problems: [String] = []
        if packageName.isEmpty || packageName.utf8.count > 255 {
            problems.append("googlePlay.packageName must be 1 to 255 characters")
        }
        if serviceAccount != nil, serviceAccountFile != nil {
            problems.append(
                "googlePlay takes serviceAccount (STOREKEEPER_GOOGLE_PLAY_SERVICE_ACCOUNT) or serviceAccountFile, not both"
            )
        }
        if !(timeoutSeconds > 0 && timeoutSeconds <= 300) {
            problems.append("googlePlay.timeoutSeconds must be more than 0 and at most 300")
        }
        for (name, url) in [("apiBaseURL", apiBaseURL), ("certsURL", certsURL)]
        where url.scheme != "https" && url.scheme != "http" {
            problems.append("googlePlay.\(name) must be an http or https URL")
        }
        return problems
    }

    /// The service account's key file, read from ``serviceAccount`` or ``serviceAccountFile``.
    ///
    /// - Throws: ``ConfigurationError`` naming the setting (never the key) when neither is
    ///   given, the file cannot be read, or the JSON is not a service account key.
    func resolvedServiceAccount() throws -> ServiceAccountKey {
        let data: Data
        let source: String
        if let serviceAccount {
            data = Data(serviceAccount.utf8)
            source = "googlePlay.serviceAccount (STOREKEEPER_GOOGLE_PLAY_SERVICE_ACCOUNT)"
        } else if let serviceAccountFile {
            guard let bytes = FileManager.default.contents(atPath: serviceAccountFile) else {
                throw ConfigurationError(
                    "cannot read googlePlay.serviceAccountFile \(serviceAccountFile): missing, unreadable or a directory"
                )
            }
            data = bytes
            source = "googlePlay.serviceAccountFile \(serviceAccountFile)"
        } else {
            throw ConfigurationError(
                "googlePlay needs serviceAccountFile (STOREKEEPER_GOOGLE_PLAY_SERVICE_ACCOUNT_FILE) or serviceAccount")
        }
        let key: ServiceAccountKey
        do {
            key = try JSONDecoder().decode(ServiceAccountKey.self, from: data)
        } catch {
            throw ConfigurationError(
                "\(source) is not a service account's JSON key (type, private_key_id, private_key, client_email, token_uri)"
            )
        }
        guard key.type == ServiceAccountKey.serviceAccountType else {
            throw ConfigurationError("\(source) is not a service account key: its type is not service_account")
        }
        guard URL(string: key.tokenUri)?.scheme != nil else {
            throw ConfigurationError("\(source) has a token_uri that is not an absolute URL")
        }
        return key
    }
}

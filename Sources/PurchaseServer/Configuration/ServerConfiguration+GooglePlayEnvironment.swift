import Foundation

extension ServerConfiguration {
    /// The `STOREKEEPER_GOOGLE_PLAY_*` variables and what each sets.
    static let googlePlayEnvironmentVariables: [(name: String, meaning: String)] = [
        ("STOREKEEPER_GOOGLE_PLAY_PACKAGE_NAME", "googlePlay.packageName (Play is off without it)"),
        ("STOREKEEPER_GOOGLE_PLAY_SERVICE_ACCOUNT_FILE", "googlePlay.serviceAccountFile"),
        ("STOREKEEPER_GOOGLE_PLAY_SERVICE_ACCOUNT", "googlePlay.serviceAccount (the key's JSON itself)"),
        ("STOREKEEPER_GOOGLE_PLAY_API_BASE_URL", "googlePlay.apiBaseURL"),
        ("STOREKEEPER_GOOGLE_PLAY_PUSH_AUDIENCE", "googlePlay.pushAudience"),
        ("STOREKEEPER_GOOGLE_PLAY_PUSH_EMAIL", "googlePlay.pushEmail"),
        ("STOREKEEPER_GOOGLE_PLAY_CERTS_URL", "googlePlay.certsURL"),
    ]

    /// Applies the `STOREKEEPER_GOOGLE_PLAY_*` variables: the package name turns Play on
    /// (or renames it); the others change the settings of a Play that is on.
    ///
    /// - Throws: ``ConfigurationError`` for a URL that is not absolute, or Play variables
    ///   without a package name (in the file or `STOREKEEPER_GOOGLE_PLAY_PACKAGE_NAME`).
    mutating func applyGooglePlayEnvironment(_ value: (String) -> String?) throws {
        let names = Self.googlePlayEnvironmentVariables.map(\.name)
        guard names.contains(where: { value($0) != nil }) else { return }
        var settings = googlePlay
        if let packageName = value("STOREKEEPER_GOOGLE_PLAY_PACKAGE_NAME") {
            settings = settings ?? GooglePlaySettings(packageName: packageName)
            settings?.packageName = packageName
        }
        guard var settings else {
            throw ConfigurationError(
                "\(names.dropFirst().filter { value($0) != nil }.joined(separator: ", ")) need "
                    + "STOREKEEPER_GOOGLE_PLAY_PACKAGE_NAME (or googlePlay.packageName in the file)")
        }
        if let file = value("STOREKEEPER_GOOGLE_PLAY_SERVICE_ACCOUNT_FILE") {
            settings.serviceAccountFile = file
            settings.serviceAccount = nil
        }
        if let json = value("STOREKEEPER_GOOGLE_PLAY_SERVICE_ACCOUNT") {
            settings.serviceAccount = json
            settings.serviceAccountFile = nil
        }
        if let url = try Self.absoluteURL("STOREKEEPER_GOOGLE_PLAY_API_BASE_URL", value) { settings.apiBaseURL = url }
        if let url = try Self.absoluteURL("STOREKEEPER_GOOGLE_PLAY_CERTS_URL", value) { settings.certsURL = url }
        if let audience = value("STOREKEEPER_GOOGLE_PLAY_PUSH_AUDIENCE") { settings.pushAudience = audience }
        if let email = value("STOREKEEPER_GOOGLE_PLAY_PUSH_EMAIL") { settings.pushEmail = email }
        googlePlay = settings
    }

    /// The variable `name` as an absolute URL, `nil` when unset.
    private static func absoluteURL(_ name: String, _ value: (String) -> String?) throws -> URL? {
        guard let text = value(name) else { return nil }
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
            throw ConfigurationError("\(name) must be an absolute URL")
        }
        return url
    }
}

import AppStoreModel
import Foundation

extension ServerConfiguration {
    /// The environment variables that override the file, and what each sets.
    public static let environmentVariables: [(name: String, meaning: String)] =
        [
            ("STOREKEEPER_BUNDLE_ID", "bundleId"),
            ("STOREKEEPER_APP_APPLE_ID", "appAppleId"),
            ("STOREKEEPER_DEPLOYMENT_ENVIRONMENT", "deploymentEnvironment (Production or Sandbox)"),
            ("STOREKEEPER_ALLOWED_ENVIRONMENTS", "allowedEnvironments, comma-separated"),
            ("STOREKEEPER_PLAYER_TOKEN_SECRET", "playerTokenSecret"),
            ("STOREKEEPER_ADMIN_KEY", "adminKey"),
            ("STOREKEEPER_VERIFY_RECEIPT_SHARED_SECRET", "verifyReceipt.sharedSecret"),
            ("STOREKEEPER_WEBHOOK_URL", "webhook.url"),
            ("STOREKEEPER_WEBHOOK_SECRET", "webhook.secret"),
            ("STOREKEEPER_APPLE_API_BASE_URL", "appStoreServerAPI.baseURL"),
            ("STOREKEEPER_APPLE_API_ISSUER_ID", "appStoreServerAPI.issuerId"),
            ("STOREKEEPER_APPLE_API_KEY_ID", "appStoreServerAPI.keyId"),
            ("STOREKEEPER_APPLE_API_KEY_FILE", "appStoreServerAPI.privateKeyFile"),
            ("STOREKEEPER_ADDITIONAL_ROOTS", "additionalRoots, comma-separated paths"),
            ("STOREKEEPER_FINISH_TRANSACTIONS_AT_APPLE", "finishTransactionsAtApple (true or false)"),
            ("STOREKEEPER_REVOCATION_CHECK", "revocationCheck.enabled (true or false)"),
            ("STOREKEEPER_REVOCATION_CHECK_URL", "revocationCheck.url"),
            (
                "STOREKEEPER_CONSUMPTION_REFUND_PREFERENCE",
                "consumption.refundPreference (none, decline, grantFull, grantProrated, byConsumption)"
            ),
            ("STOREKEEPER_CONSUMPTION_SAMPLE_CONTENT_PROVIDED", "consumption.sampleContentProvided (true or false)"),
            ("STOREKEEPER_CONSOLE_ENABLED", "console.enabled (true or false)"),
            ("STOREKEEPER_CONSOLE_SECURE_COOKIES", "console.secureCookies (true or false)"),
            (
                "STOREKEEPER_RESTORE_TRANSFER_POLICY",
                "restoreTransferPolicy (keep_with_first, transfer_to_latest, refuse)"
            ),
        ] + googlePlayEnvironmentVariables + LoadSettings.environmentVariables

    /// This configuration with `STOREKEEPER_*` variables from `environment` applied.
    ///
    /// - Throws: ``ConfigurationError`` listing every variable that cannot be used, one per line.
    public func applyingEnvironment(_ environment: [String: String]) throws -> ServerConfiguration {
        var problems: [String] = []
        let configuration = applyingEnvironment(environment, problems: &problems)
        guard problems.isEmpty else { throw ConfigurationError(problems.joined(separator: "\n")) }
        return configuration
    }

    /// This configuration with the usable `STOREKEEPER_*` variables from `environment`
    /// applied; a sentence for each one that cannot be used is added to `problems`.
    public func applyingEnvironment(_ environment: [String: String], problems: inout [String]) -> ServerConfiguration {
        var configuration = self
        var found: [String] = []
        /// Runs one variable's step, recording its refusal and going on with the next.
        func step(_ apply: () throws -> Void) {
            do {
                try apply()
            } catch {
                found.append((error as? ConfigurationError)?.description ?? "\(error)")
            }
        }
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        if let bundleId = value("STOREKEEPER_BUNDLE_ID") { configuration.bundleId = bundleId }
        step {
            if let text = value("STOREKEEPER_APP_APPLE_ID") {
                guard let appAppleId = Int64(text) else {
                    throw ConfigurationError("STOREKEEPER_APP_APPLE_ID must be a number, not \(text)")
                }
                configuration.appAppleId = appAppleId
            }
        }
        if let deployment = value("STOREKEEPER_DEPLOYMENT_ENVIRONMENT") {
            configuration.deploymentEnvironment = AppStoreEnvironment(rawValue: deployment)
        }
        if let list = value("STOREKEEPER_ALLOWED_ENVIRONMENTS") {
            configuration.allowedEnvironments = list.split(separator: ",").map {
                AppStoreEnvironment(rawValue: $0.trimmingCharacters(in: .whitespaces))
            }
        }
        if let list = value("STOREKEEPER_ADDITIONAL_ROOTS") {
            configuration.additionalRoots = list.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        if let secret = value("STOREKEEPER_PLAYER_TOKEN_SECRET") { configuration.playerTokenSecret = secret }
        if let adminKey = value("STOREKEEPER_ADMIN_KEY") { configuration.adminKey = adminKey }
        if let sharedSecret = value("STOREKEEPER_VERIFY_RECEIPT_SHARED_SECRET") {
            configuration.verifyReceipt.sharedSecret = sharedSecret
        }
        step {
            if let text = value("STOREKEEPER_WEBHOOK_URL") {
                guard let url = URL(string: text), url.scheme != nil else {
                    throw ConfigurationError("STOREKEEPER_WEBHOOK_URL must be an absolute URL")
                }
                configuration.webhook = WebhookSettings(url: url, secret: configuration.webhook?.secret)
            }
        }
        if let secret = value("STOREKEEPER_WEBHOOK_SECRET") { configuration.webhook?.secret = secret }
        step {
            if let text = value("STOREKEEPER_FINISH_TRANSACTIONS_AT_APPLE") {
                guard let finish = Bool(text) else {
                    throw ConfigurationError(
                        "STOREKEEPER_FINISH_TRANSACTIONS_AT_APPLE must be true or false, not \(text)")
                }
                configuration.finishTransactionsAtApple = finish
            }
        }
        step {
            if let text = value("STOREKEEPER_REVOCATION_CHECK") {
                guard let enabled = Bool(text) else {
                    throw ConfigurationError("STOREKEEPER_REVOCATION_CHECK must be true or false, not \(text)")
                }
                configuration.revocationCheck.enabled = enabled
            }
        }
        step {
            if let text = value("STOREKEEPER_REVOCATION_CHECK_URL") {
                guard let url = URL(string: text), url.scheme != nil else {
                    throw ConfigurationError("STOREKEEPER_REVOCATION_CHECK_URL must be an absolute URL")
                }
                configuration.revocationCheck.url = url
            }
        }
        step { try configuration.applyAppStoreServerAPIEnvironment(value) }
        step { try configuration.applyGooglePlayEnvironment(value) }
        step { try configuration.applyRefundPreferenceEnvironment(value) }
        step {
            if let provided = try Self.flag("STOREKEEPER_CONSUMPTION_SAMPLE_CONTENT_PROVIDED", value) {
                configuration.consumption.sampleContentProvided = provided
            }
        }
        step {
            if let enabled = try Self.flag("STOREKEEPER_CONSOLE_ENABLED", value) {
                configuration.console.enabled = enabled
            }
        }
        step {
            if let secure = try Self.flag("STOREKEEPER_CONSOLE_SECURE_COOKIES", value) {
                configuration.console.secureCookies = secure
            }
        }
        step {
            if let text = value("STOREKEEPER_RESTORE_TRANSFER_POLICY") {
                guard let policy = RestoreTransferPolicy(rawValue: text) else {
                    let names = RestoreTransferPolicy.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ConfigurationError("STOREKEEPER_RESTORE_TRANSFER_POLICY must be one of \(names), not \(text)")
                }
                configuration.restoreTransferPolicy = policy
            }
        }
        step { try configuration.load.applyEnvironment(value) }
        problems += found
        return configuration
    }

    /// The boolean variable `name`, `nil` when unset; anything but `true` or `false` is refused.
    private static func flag(_ name: String, _ value: (String) -> String?) throws -> Bool? {
        guard let text = value(name) else { return nil }
        guard let flag = Bool(text) else { throw ConfigurationError("\(name) must be true or false, not \(text)") }
        return flag
    }

    private mutating func applyRefundPreferenceEnvironment(_ value: (String) -> String?) throws {
        guard let text = value("STOREKEEPER_CONSUMPTION_REFUND_PREFERENCE") else { return }
        guard let policy = ConsumptionSettings.RefundPreferencePolicy(rawValue: text) else {
            let names = ConsumptionSettings.RefundPreferencePolicy.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError("STOREKEEPER_CONSUMPTION_REFUND_PREFERENCE must be one of \(names), not \(text)")
        }
        consumption.refundPreference = policy
    }

    private mutating func applyAppStoreServerAPIEnvironment(_ value: (String) -> String?) throws {
        let issuerId = value("STOREKEEPER_APPLE_API_ISSUER_ID")
        let keyId = value("STOREKEEPER_APPLE_API_KEY_ID")
        let keyFile = value("STOREKEEPER_APPLE_API_KEY_FILE")
        let baseURL = value("STOREKEEPER_APPLE_API_BASE_URL")
        guard issuerId != nil || keyId != nil || keyFile != nil || baseURL != nil else { return }
        var settings =
            appStoreServerAPI
            ?? AppStoreServerAPISettings(
                baseURL: URL(string: "https://api.storekit.apple.com")!, issuerId: "", keyId: "")
        if let issuerId { settings.issuerId = issuerId }
        if let keyId { settings.keyId = keyId }
        if let keyFile {
            settings.privateKeyFile = keyFile
            settings.privateKeyPEM = nil
        }
        if let baseURL {
            guard let url = URL(string: baseURL), url.scheme != nil else {
                throw ConfigurationError("STOREKEEPER_APPLE_API_BASE_URL must be an absolute URL")
            }
            settings.baseURL = url
        }
        appStoreServerAPI = settings
    }
}

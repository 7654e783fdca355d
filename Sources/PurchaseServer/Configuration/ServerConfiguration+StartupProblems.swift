import AppStoreSigning
import Foundation

extension ServerConfiguration {
    /// Every problem that stops a server from starting with this configuration, each a
    /// sentence: ``validationProblems()``, then each ``additionalRoots`` file that cannot be
    /// read or holds no certificate, then an App Store Server API key that cannot be read or
    /// is not a P-256 private key. Reads files; opens no database and no connection
    /// (`storekeeper config check`).
    public func startupProblems() -> [String] {
        var problems = validationProblems()
        for path in additionalRoots where !path.isEmpty {
            do {
                _ = try Self.rootCertificates(atPath: path)
            } catch {
                problems.append("\(error)")
            }
        }
        if let settings = appStoreServerAPI {
            do {
                _ = try AppStoreServerAPIKey(
                    issuerId: settings.issuerId, keyId: settings.keyId, bundleId: bundleId,
                    privateKeyPEM: settings.resolvedPEM())
            } catch let error as ConfigurationError {
                problems.append(error.description)
            } catch {
                problems.append("appStoreServerAPI's private key is not a P-256 key in PEM: \(error)")
            }
        }
        return problems
    }
}

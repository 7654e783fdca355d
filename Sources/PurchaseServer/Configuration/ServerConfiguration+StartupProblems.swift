import AppStoreSigning
import Foundation
import PlaySigning

extension ServerConfiguration {
    /// Every problem that stops a server from starting with this configuration, each a
    /// sentence: ``validationProblems()``, then each ``additionalRoots`` file that cannot be
    /// read or holds no certificate, then an App Store Server API key that cannot be read or
    /// is not a P-256 private key, then a Google Play service account key that cannot be read or
    /// is not an RSA key. Reads files; opens no database and no connection
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
        if let googlePlay {
            do {
                _ = try RSAKeyPEM.privateKey(pem: try googlePlay.resolvedServiceAccount().privateKey)
            } catch let error as ConfigurationError {
                problems.append(error.description)
            } catch {
                problems.append("googlePlay's service account private_key is not an RSA key in PEM")
            }
        }
        return problems
    }
}

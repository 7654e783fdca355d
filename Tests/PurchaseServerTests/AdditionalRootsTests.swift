import AppStoreModel
import AppStoreSigning
import Foundation
import LedgerTestSupport
import PurchaseServer
import Testing

/// `additionalRoots`: a staging deployment trusting a standalone emulator's roots besides
/// Apple's, refused in production, announced in the log and in `/healthz`.
@Suite("Additional trust roots")
struct AdditionalRootsTests {
    /// A folder with a DER root and a PEM file holding two certificates (a bundle).
    struct RootFiles {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roots-\(UUID().uuidString)")
        let der: String
        let pem: String
        let derChain: SigningChain
        let pemChain: SigningChain

        init() throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            derChain = try SigningChain.generate(.es256)
            pemChain = try SigningChain.generate(.rsa2048)
            der = folder.appendingPathComponent("jws-root.der").path
            pem = folder.appendingPathComponent("bundle.pem").path
            try Data(derChain.rootCertificateDER).write(to: URL(fileURLWithPath: der))
            let bundle = [pemChain.rootCertificateDER, pemChain.intermediateCertificateDER].map { der in
                "-----BEGIN CERTIFICATE-----\n"
                    + Data(der).base64EncodedString(options: .lineLength64Characters)
                    + "\n-----END CERTIFICATE-----\n"
            }
            try Data(("# the emulator's roots\n" + bundle.joined()).utf8).write(to: URL(fileURLWithPath: pem))
        }

        func remove() {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    static func staging(_ roots: [String]) -> ServerConfiguration {
        ServerConfiguration(
            deploymentEnvironment: .sandbox, allowedEnvironments: [.sandbox], playerTokenSecret: "player-secret-1",
            adminKey: "admin-key-0001", additionalRoots: roots)
    }

    @Test("read from the file and from STOREKEEPER_ADDITIONAL_ROOTS (comma-separated); absent is none")
    func fileAndEnvironment() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(#"{"deploymentEnvironment": "Sandbox", "additionalRoots": ["/etc/emulator/jws.der"]}"#.utf8)
            .write(to: url)
        let configuration = try ServerConfiguration.load(from: url)
        #expect(configuration.additionalRoots == ["/etc/emulator/jws.der"])
        #expect(configuration.description.contains("additionalRoots=1"))
        #expect(ServerConfiguration().additionalRoots.isEmpty)
        #expect(!ServerConfiguration().description.contains("additionalRoots"))

        let overridden = try configuration.applyingEnvironment([
            "STOREKEEPER_ADDITIONAL_ROOTS": "/run/roots/jws.pem, /run/roots/receipt.der"
        ])
        #expect(overridden.additionalRoots == ["/run/roots/jws.pem", "/run/roots/receipt.der"])
        #expect(try configuration.applyingEnvironment(["STOREKEEPER_ADDITIONAL_ROOTS": ""]).additionalRoots.count == 1)
        #expect(ServerConfiguration.environmentVariables.contains { $0.name == "STOREKEEPER_ADDITIONAL_ROOTS" })
    }

    @Test("refused with deploymentEnvironment Production, naming both fields; accepted with Sandbox")
    func refusedInProduction() {
        var configuration = Self.staging(["/etc/emulator/jws.der"])
        #expect(configuration.validationProblems().isEmpty)

        configuration.deploymentEnvironment = .production
        let problems = configuration.validationProblems()
        #expect(problems.count == 1)
        let problem = problems.first ?? ""
        #expect(problem.contains("additionalRoots"))
        #expect(problem.contains("deploymentEnvironment Production"))

        configuration.additionalRoots = []
        #expect(configuration.validationProblems().isEmpty, "production with Apple's roots only is fine")
        configuration.additionalRoots = [""]
        configuration.deploymentEnvironment = .sandbox
        #expect(configuration.validationProblems() == ["additionalRoots holds an empty path"])
    }

    @Test("DER files and every certificate of a PEM bundle are loaded; unreadable or foreign files are errors")
    func loading() throws {
        let files = try RootFiles()
        defer { files.remove() }
        let certificates = try Self.staging([files.der, files.pem]).additionalRootCertificates()
        #expect(certificates == [files.derChain.root, files.pemChain.root, files.pemChain.intermediate])

        let missing = files.folder.appendingPathComponent("missing.der").path
        #expect(throws: ConfigurationError.self) { try Self.staging([missing]).additionalRootCertificates() }
        let garbage = files.folder.appendingPathComponent("garbage.pem")
        try Data("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n".utf8).write(to: garbage)
        do {
            _ = try Self.staging([garbage.path]).additionalRootCertificates()
            Issue.record("a PEM file without a complete certificate was accepted")
        } catch let error as ConfigurationError {
            #expect(error.description.contains(garbage.path), "the message names the file")
        }
        #expect(throws: ConfigurationError.self) { try Self.staging([files.folder.path]).additionalRootCertificates() }
    }

    @Test("the server names them in /healthz with a warning; without them /healthz is unchanged")
    func healthz() async throws {
        let files = try RootFiles()
        defer { files.remove() }
        let plain = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await plain.shutdown() } }
        let health =
            try JSONSerialization.jsonObject(with: try await plain.send(.get, "/healthz").body) as? [String: Any]
        #expect(health?.keys.sorted() == ["database", "status"], "Apple's roots only: nothing to say")
        #expect(try await plain.server.additionalRootSubjects.isEmpty)

        let staging = try await ServerFixture(.sqlite, notifications: false) { $0.additionalRoots = [files.der] }
        defer { Task { await staging.shutdown() } }
        let answer = try await staging.send(.get, "/healthz")
        #expect(answer.status == 200)
        let body = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        #expect(body?["status"] as? String == "ok")
        #expect(body?["trustsAdditionalRoots"] as? Bool == true)
        let subject = String(describing: files.derChain.root.subject)
        #expect(body?["additionalRoots"] as? [String] == [subject])
        #expect((body?["warning"] as? String)?.contains("never production") == true)
        #expect(try await staging.server.additionalRootSubjects == [subject])
    }
}

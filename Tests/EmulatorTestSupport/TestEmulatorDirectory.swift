import AppStoreEmulator
import AppStoreSigning
import Foundation

/// Fresh emulator data directories for tests, each provided with one receipt chain
/// generated once per test process.
///
/// An emulator creates its RSA-2048 receipt chain (three key generations) on a new data
/// directory. Hundreds of tests doing that at once kept both cooperative threads of a
/// 2-core machine busy for a minute, and the tests with deadlines timed out. The JWS chain
/// and the Server API key stay the emulator's own: they are cheap to make.
public enum TestEmulatorDirectory {
    /// The shared receipt chain, in PEM.
    private static let receiptChainPEM = Result { try SigningChain.generate(.rsa2048).pemRepresentation }

    /// A new directory under the temporary folder, named `prefix-<random>`, holding the
    /// shared receipt chain where ``EmulatorIdentity`` looks for it.
    public static func make(_ prefix: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
        try provide(directory)
        return directory
    }

    /// Creates `directory` if needed and writes the shared receipt chain into it, unless
    /// it holds one already.
    public static func provide(_ directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(EmulatorIdentity.receiptChainFileName)
        guard !FileManager.default.fileExists(atPath: file.path) else { return }
        try receiptChainPEM.get().write(to: file, atomically: true, encoding: .utf8)
    }
}

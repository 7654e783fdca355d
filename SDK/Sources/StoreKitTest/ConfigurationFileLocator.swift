import Foundation

/// Finds a `.storekit` file by name, as `SKTestSession(configurationFileNamed:)` does in
/// Xcode, where the file is a resource of the app or of the test bundle.
///
/// On Linux a SwiftPM target's resources are not in `Bundle.main` nor among
/// `Bundle.allBundles`: they are in a `<Package>_<Target>.resources` directory beside the
/// test executable (what `Bundle.module` opens). So the file is looked for in
/// `Bundle.main`, every loaded bundle, every resource bundle beside the executable
/// (`*.resources`, `*.bundle`), each also in its `Fixtures/` folder, then in the current
/// directory.
enum ConfigurationFileLocator {
    /// The URL of `name.storekit`, or nil when no bundle and not the current directory holds it.
    static func url(named name: String) -> URL? {
        let bundles = [Bundle.main] + Bundle.allBundles + resourceBundles()
        for subdirectory in [nil, "Fixtures"] {
            for bundle in bundles {
                if let url = bundle.url(forResource: name, withExtension: "storekit", subdirectory: subdirectory) {
                    return url
                }
            }
        }
        let local = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("\(name).storekit")
        return FileManager.default.fileExists(atPath: local.path) ? local : nil
    }

    /// The SwiftPM resource bundles beside the main executable, by name.
    static func resourceBundles() -> [Bundle] {
        let directories = Set(
            [Bundle.main.bundleURL, Bundle.main.executableURL?.deletingLastPathComponent()].compactMap {
                $0?.standardizedFileURL
            })
        var bundles: [Bundle] = []
        for directory in directories.sorted(by: { $0.path < $1.path }) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".resources") || name.hasSuffix(".bundle") {
                if let bundle = Bundle(path: directory.appendingPathComponent(name).path) { bundles.append(bundle) }
            }
        }
        return bundles
    }
}

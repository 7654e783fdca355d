import Foundation

/// The console's package resources: templates, strings per language, static files.
struct ConsoleResources: Sendable {
    /// Template text by name (the file name without `.mustache`).
    var templates: [String: String]
    /// The merged strings (every `*.json` of the language's folder) by language.
    var strings: [ConsoleLanguage: [String: String]]
    /// The static files by name.
    var staticFiles: [String: Data]

    /// A resource that cannot be loaded.
    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Loads everything from `directory` (the `Resources` folder): `templates/*.mustache`,
    /// `locales/<language>/*.json` (flat objects of strings), `static/*`.
    static func load(from directory: URL) throws -> ConsoleResources {
        let templates = try files(in: directory.appendingPathComponent("templates"), extension: "mustache")
            .mapValues { String(decoding: $0, as: UTF8.self) }
        var strings: [ConsoleLanguage: [String: String]] = [:]
        for language in ConsoleLanguage.allCases {
            let folder = directory.appendingPathComponent("locales").appendingPathComponent(language.rawValue)
            var merged: [String: String] = [:]
            for (name, data) in try files(in: folder, extension: "json").sorted(by: { $0.key < $1.key }) {
                guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: String] else {
                    throw LoadError(
                        description: "locales/\(language.rawValue)/\(name).json is not a flat object of strings")
                }
                merged.merge(object) { first, _ in first }
            }
            strings[language] = merged
        }
        let staticFiles = try files(in: directory.appendingPathComponent("static"), extension: nil)
        return ConsoleResources(templates: templates, strings: strings, staticFiles: staticFiles)
    }

    /// The package's own resources.
    static func bundled() throws -> ConsoleResources {
        guard let directory = Bundle.module.url(forResource: "Resources", withExtension: nil) else {
            throw LoadError(description: "the SupportConsole resources are missing from the bundle")
        }
        return try load(from: directory)
    }

    /// The regular files of `folder` (not its subfolders) by name, without `extension` when
    /// one is asked for (then only files with it); none when the folder does not exist.
    private static func files(in folder: URL, extension wanted: String?) throws -> [String: Data] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return [:] }
        var files: [String: Data] = [:]
        for name in names where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            if let wanted {
                guard url.pathExtension == wanted else { continue }
                files[url.deletingPathExtension().lastPathComponent] = try Data(contentsOf: url)
            } else {
                files[name] = try Data(contentsOf: url)
            }
        }
        return files
    }
}

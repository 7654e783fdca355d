import Foundation
import Testing

/// README's command synopsis ("The command line") names every subcommand and every option
/// its `--help` shows, so a newcomer's reference never lags the binary.
struct CommandSynopsisTests {
    /// The README's synopsis lines, continuation lines joined to their command.
    static func synopsis() throws -> [String] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try #require(text.range(of: "## The command line"))
        let start = try #require(text.range(of: "```sh\n", range: section.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        var commands: [String] = []
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
            if line.hasPrefix("storekeeper ") {
                commands.append(String(line))
            } else if !commands.isEmpty {
                commands[commands.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return commands
    }

    /// `storekeeper COMMAND --help`'s subcommands, or its options when it has none.
    static func help(_ command: [String]) async throws -> (subcommands: [String], options: [String]) {
        let output = try await CommandLineRunner.run(command + ["--help"])
        let text = output.stdout + output.stderr
        // The list after SUBCOMMANDS: up to its blank line; a name is lowercase letters and
        // dashes, at two spaces' indent (wrapped abstracts are indented further).
        let list =
            text.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first?
            .components(separatedBy: "\n\n").first ?? ""
        let subcommands = list.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first,
                name.allSatisfy({ $0.isLowercase || $0 == "-" })
            else { return nil }
            return String(name)
        }
        let usage = text.components(separatedBy: "\n").first { $0.hasPrefix("USAGE:") } ?? ""
        let options = usage.split(separator: " ").compactMap { word -> String? in
            let option = word.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            return option.hasPrefix("--") ? option : nil
        }
        return (subcommands, options)
    }

    @Test func everySubcommandAndOptionIsInTheReadme() async throws {
        let synopsis = try Self.synopsis()
        var pending: [[String]] = [[]]
        var checked = 0
        while let command = pending.popLast() {
            let (subcommands, options) = try await Self.help(command)
            #expect(command.count <= 3, "no command nests that deep: \(command)")
            if !subcommands.isEmpty, command.count < 3 {
                pending += subcommands.filter { $0 != "help" }.map { command + [$0] }
                continue
            }
            let prefix = (["storekeeper"] + command).joined(separator: " ") + " "
            let lines = synopsis.filter { $0.hasPrefix(prefix) || $0 == prefix.trimmingCharacters(in: .whitespaces) }
            #expect(!lines.isEmpty, "README's synopsis lacks `\(prefix)…`")
            let words = Set(lines.joined(separator: " ").split(whereSeparator: { " []|".contains($0) }))
            for option in options {
                #expect(words.contains(Substring(option)), "README's `\(prefix)…` lacks \(option)")
            }
            checked += 1
        }
        #expect(checked >= 14, "every leaf command was checked (\(checked))")
    }
}

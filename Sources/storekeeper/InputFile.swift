import ArgumentParser
import Foundation

/// Reads a command's input: a path, or `-` for standard input.
enum InputFile {
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" {
            return Array(FileHandle.standardInput.readDataToEndOfFile())
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read \(path)")
        }
        return Array(data)
    }
}

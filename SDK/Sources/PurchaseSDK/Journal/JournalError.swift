import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A journal file operation failed; the journal on disk is unchanged.
public enum JournalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A system call failed: operation, path, errno.
    case io(String, String, Int32)

    public var description: String {
        switch self {
        case .io(let operation, let path, let code): "\(operation) \(path): \(String(cString: strerror(code)))"
        }
    }
}

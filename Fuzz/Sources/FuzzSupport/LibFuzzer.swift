import CLibFuzzer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The entry point of a fuzz target.
///
/// libFuzzer's runtime brings its own `main`, but SwiftPM links executables with their
/// `main` renamed (`<module>_main`, for `@testable` executables), so each target declares
/// an `@main` type whose `main()` calls ``run(_:)``: it hands the command line to
/// libFuzzer's driver, which then calls the target's `LLVMFuzzerTestOneInput`.
public enum LibFuzzer {
    /// The signature of `LLVMFuzzerTestOneInput`.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Runs libFuzzer with this process's arguments and exits with its status.
    public static func run(_ testOneInput: TestOneInput) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }

    /// The input libFuzzer passes, as bytes.
    public static func bytes(_ start: UnsafePointer<UInt8>?, _ count: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: count > 0 ? start : nil, count: count)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `sesame` command line.
public enum SesameCommandLine {
    /// Runs one command and returns its exit code: 0 success, 1 failure, 2 bad arguments.
    public static func run(_ arguments: [String]) -> Int32 {
        print("sesame: no commands yet")
        return 0
    }

    /// Exits the process with `code`.
    public static func exit(with code: Int32) -> Never {
        #if canImport(Glibc)
            Glibc.exit(code)
        #else
            Darwin.exit(code)
        #endif
    }
}

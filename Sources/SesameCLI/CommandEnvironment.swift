import Foundation

/// Everything a command touches outside its arguments: input, output and the clock.
///
/// The `sesame` executable uses `CommandEnvironment.process` (real standard streams, files and
/// the system clock); tests pass closures that capture output and fix the time.
public struct CommandEnvironment {
    /// Reads all of standard input (for the `-` file argument).
    public var readStandardInput: () throws -> [UInt8]
    /// Reads a whole file by path.
    public var readFile: (String) throws -> [UInt8]
    /// Writes text to standard output; commands pass whole lines, newline included.
    public var writeOutput: (String) -> Void
    /// Writes text to standard error; commands pass whole lines, newline included.
    public var writeError: (String) -> Void
    /// The current time, for `--at` defaults.
    public var now: () -> Date
    /// Environment variables (`SESAME_*` settings for `serve` and `init`).
    public var variables: [String: String] = [:]

    /// An environment from its parts.
    public init(
        readStandardInput: @escaping () throws -> [UInt8], readFile: @escaping (String) throws -> [UInt8],
        writeOutput: @escaping (String) -> Void, writeError: @escaping (String) -> Void, now: @escaping () -> Date
    ) {
        self.readStandardInput = readStandardInput
        self.readFile = readFile
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.now = now
    }

    /// The real process: standard input, output and error, the file system and the system clock.
    public static var process: CommandEnvironment {
        var environment = CommandEnvironment(
            readStandardInput: { try readAll(FileHandle.standardInput) },
            readFile: { path in
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                defer { try? handle.close() }
                return try readAll(handle)
            },
            writeOutput: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            writeError: { text in FileHandle.standardError.write(Data(text.utf8)) },
            now: { Date() })
        environment.variables = ProcessInfo.processInfo.environment
        return environment
    }

    /// The most input a command reads; credential JSON is a few kilobytes.
    static let maxInputSize = 1 << 20

    /// Reads a handle to its end, refusing more than `maxInputSize` bytes.
    private static func readAll(_ handle: FileHandle) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
            bytes.append(contentsOf: chunk)
            if bytes.count > maxInputSize {
                throw InputTooLarge()
            }
        }
        return bytes
    }
}

/// The input was larger than `CommandEnvironment.maxInputSize`.
struct InputTooLarge: Error, CustomStringConvertible {
    var description: String { "input is larger than \(CommandEnvironment.maxInputSize) bytes" }
}

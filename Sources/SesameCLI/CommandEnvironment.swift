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
    /// Shows `prompt` on the terminal and reads one line typed there, with echo off when `secret`
    /// (a password); nil when there is no terminal or it ends. The line ending is not returned;
    /// nothing else is taken off.
    public var readTerminalLine: (_ prompt: String, _ secret: Bool) -> String? = { _, _ in nil }
    /// Reads one line of standard input without its line ending (`--password-stdin`); nil at the end.
    public var readStandardInputLine: () -> String? = { nil }

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
        environment.readTerminalLine = { prompt, secret in Terminal.readLine(prompt: prompt, secret: secret) }
        environment.readStandardInputLine = { Swift.readLine(strippingNewline: true) }
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

/// The controlling terminal (`/dev/tty`), read a line at a time.
enum Terminal {
    /// The longest line read (a password is at most 1,024 bytes; codes are short).
    static let maxLine = 4_096

    /// Writes `prompt` to the terminal and reads a line there; with `secret`, echo is off while
    /// it is typed (termios) and a newline is written after. nil without a terminal.
    static func readLine(prompt: String, secret: Bool) -> String? {
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // Echo goes off before the prompt shows, so nothing typed after the prompt is echoed.
        var saved = termios()
        let hasAttributes = tcgetattr(descriptor, &saved) == 0
        if secret, hasAttributes {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(descriptor, TCSAFLUSH, &quiet)
        }
        _ = prompt.withCString { write(descriptor, $0, strlen($0)) }
        defer {
            if secret, hasAttributes {
                _ = tcsetattr(descriptor, TCSAFLUSH, &saved)
                _ = write(descriptor, "\n", 1)
            }
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count <= maxLine {
            let count = read(descriptor, &byte, 1)
            if count <= 0 { return bytes.isEmpty ? nil : String(validating: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        // Not UTF-8: refused rather than silently changed.
        return String(validating: bytes, as: UTF8.self)
    }
}

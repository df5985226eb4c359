/// How important a log line is; the log drops lines below its configured level.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    /// Detail for debugging.
    case debug = 0
    /// Normal operation, e.g. one line per request.
    case info = 1
    /// Something odd that was handled.
    case warn = 2
    /// Something failed, e.g. a handler threw an unexpected error.
    case error = 3

    /// The name written in the `level` field.
    public var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warn: "warn"
        case .error: "error"
        }
    }

    /// Parses `debug`, `info`, `warn` (or `warning`), `error`.
    public init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warn", "warning": self = .warn
        case "error": self = .error
        default: return nil
        }
    }

    /// Orders levels by importance.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

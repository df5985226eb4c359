#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Structured JSON logging: one line per request and a few server events, to stderr or an injected sink.
///
/// A request line carries time, level, request id, method, route pattern, status, latency and client IP,
/// and nothing else: never the raw path, query string, body, or a header value.
public final class RequestLog: Sendable {
    /// The lowest level written.
    public let level: LogLevel
    private let sink: @Sendable (String) -> Void
    private let wallClock: @Sendable () -> Double

    /// Creates a log. `sink` receives each line without the newline; `wallClock` returns Unix seconds.
    public init(
        level: LogLevel = .info, sink: @escaping @Sendable (String) -> Void = RequestLog.standardError,
        wallClock: @escaping @Sendable () -> Double = RequestLog.unixTime
    ) {
        self.level = level
        self.sink = sink
        self.wallClock = wallClock
    }

    /// Writes a line and a newline to standard error in one `write`.
    @Sendable public static func standardError(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// The current Unix time in seconds.
    @Sendable public static func unixTime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }

    /// Logs one answered request at `info` (`warn` for 5xx).
    public func request(
        requestID: String, method: HTTPMethod, route: String, status: Int, latencySeconds: Double, clientIP: String
    ) {
        let lineLevel: LogLevel = status >= 500 ? .warn : .info
        guard lineLevel >= level else { return }
        let latency = (latencySeconds * 1_000_000).rounded() / 1000
        emit(
            lineLevel, "request",
            [
                ("request_id", JSONText.quote(requestID)), ("method", JSONText.quote(method.rawValue)),
                ("route", JSONText.quote(route)), ("status", String(status)), ("latency_ms", "\(latency)"),
                ("client_ip", JSONText.quote(clientIP)),
            ])
    }

    /// Logs an event with string fields. Pass only values that cannot hold secrets or request input.
    public func log(_ eventLevel: LogLevel, _ message: String, fields: [(String, String)] = []) {
        guard eventLevel >= level else { return }
        emit(eventLevel, message, fields.map { ($0.0, JSONText.quote($0.1)) })
    }

    private func emit(_ eventLevel: LogLevel, _ message: String, _ fields: [(String, String)]) {
        var line = "{\"time\":\"" + Self.iso8601(wallClock()) + "\",\"level\":\"" + eventLevel.name + "\",\"msg\":"
        line += JSONText.quote(message)
        for (key, value) in fields { line += "," + JSONText.quote(key) + ":" + value }
        line += "}"
        sink(line)
    }

    /// `2024-05-01T12:00:00.123Z` for Unix seconds.
    static func iso8601(_ seconds: Double) -> String {
        let seconds = seconds.isFinite ? min(max(seconds, 0), 253_402_300_799) : 0  // 0 ... 9999-12-31
        var whole = time_t(seconds.rounded(.down))
        let millis = Int((seconds - Double(whole)) * 1000)
        var parts = tm()
        gmtime_r(&whole, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One persistent HTTP/1.1 connection to the server under test: blocking POSIX socket, TCP_NODELAY,
/// requests with Content-Length, responses framed by Content-Length (the only framing Sesame uses).
/// Enough for a load generator; not a general HTTP client.
final class HTTPConnection {
    /// A response: status and body (headers are read and dropped, except the framing ones).
    struct Response {
        var status: Int
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    enum Failure: Error, CustomStringConvertible {
        case connect(Int32)
        case send(Int32)
        case receive(Int32)
        case closed
        case malformed(String)

        var description: String {
            switch self {
            case .connect(let code): return "connect failed: \(String(cString: strerror(code)))"
            case .send(let code): return "send failed: \(String(cString: strerror(code)))"
            case .receive(let code): return "receive failed: \(String(cString: strerror(code)))"
            case .closed: return "the server closed the connection"
            case .malformed(let what): return "malformed response: \(what)"
            }
        }
    }

    let port: Int
    private let host: String
    private var fd: Int32 = -1
    private var buffer: [UInt8] = []
    private var start = 0
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    /// How many times the connection had to be reopened (the server closed it).
    private(set) var reconnects = 0

    init(port: Int, host: String = "127.0.0.1") throws {
        self.port = port
        self.host = host
        fd = try Self.open(port: port, host: host)
    }

    deinit { if fd >= 0 { close(fd) } }

    /// A connected IPv4 TCP socket, or `connect(errno)`.
    static func open(port: Int, host: String = "127.0.0.1") throws -> Int32 {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw Failure.connect(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            let code = errno
            close(socketFD)
            throw Failure.connect(code)
        }
        var one: Int32 = 1
        setsockopt(socketFD, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return socketFD
    }

    /// Sends one request and reads its response. Reopens the connection once if the server had
    /// closed it before the request was sent (keep-alive timeout).
    func request(
        _ method: String, _ path: String, body: [UInt8]? = nil, headers: [(String, String)] = []
    ) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: localhost:\(port)\r\n"
        if let body {
            head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if let body { bytes += body }
        do {
            try send(bytes)
            return try readResponse()
        } catch Failure.closed {
            // The server dropped an idle keep-alive connection: open a new one and retry once.
            close(fd)
            fd = try Self.open(port: port, host: host)
            buffer.removeAll(keepingCapacity: true)
            start = 0
            reconnects += 1
            try send(bytes)
            return try readResponse()
        }
    }

    /// POST with a JSON body given as a string.
    func post(_ path: String, json: String, headers: [(String, String)] = []) throws -> Response {
        try request("POST", path, body: Array(json.utf8), headers: headers)
    }

    private func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE || errno == ECONNRESET { throw Failure.closed }
                throw Failure.send(errno)
            }
            offset += sent
        }
    }

    /// Reads more bytes into the buffer; throws `closed` on EOF.
    private func fill() throws {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        while true {
            let received = scratch.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return recv(fd, base, raw.count, 0)
            }
            if received > 0 {
                buffer.append(contentsOf: scratch.prefix(received))
                return
            }
            if received == 0 { throw Failure.closed }
            if errno == EINTR { continue }
            if errno == ECONNRESET { throw Failure.closed }
            throw Failure.receive(errno)
        }
    }

    /// The index just past "\r\n\r\n" at or after `start`, if the buffer holds it.
    private func headerEnd() -> Int? {
        var index = start
        while index + 3 < buffer.count {
            if buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    private func readResponse() throws -> Response {
        var end = headerEnd()
        while end == nil {
            try fill()
            end = headerEnd()
            if end == nil && buffer.count - start > 64 * 1024 { throw Failure.malformed("header too long") }
        }
        guard let headerEnd = end else { throw Failure.malformed("no header") }
        let head = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: true)
        guard let statusLine = lines.first else { throw Failure.malformed("no status line") }
        let statusParts = statusLine.split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure.malformed("status line \(statusLine)")
        }
        var length = 0
        var closes = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                guard let parsed = Int(value), parsed >= 0 else { throw Failure.malformed("Content-Length \(value)") }
                length = parsed
            } else if name == "connection" && value.lowercased() == "close" {
                closes = true
            } else if name == "transfer-encoding" {
                throw Failure.malformed("Transfer-Encoding is not supported here")
            }
        }
        while buffer.count - headerEnd < length { try fill() }
        let body = Array(buffer[headerEnd..<(headerEnd + length)])
        start = headerEnd + length
        if closes {
            // The server will close; reconnect now so the next request does not fail.
            close(fd)
            fd = try Self.open(port: port, host: host)
            buffer.removeAll(keepingCapacity: true)
            start = 0
            reconnects += 1
        }
        return Response(status: status, body: body)
    }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal blocking HTTP/1.1 client over one TCP socket, for live tests that need to see the
/// wire (keep-alive, closed connections, raw bytes).
final class RawHTTPClient {
    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: String] {
            (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: String]) ?? [:]
        }
    }

    enum ClientError: Error { case connect(Int32), send(Int32), closed, malformed(String) }

    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host:port`; `sourceAddress` (IPv4, e.g. another loopback address such as
    /// 127.0.0.2) is the address the connection comes from.
    init(host: String = "127.0.0.1", port: Int, receiveTimeoutSeconds: Int = 10, sourceAddress: String? = nil) throws {
        let isV6 = host.contains(":")
        // The socket is stored only once it is connected: a class whose stored properties are all set
        // runs its deinit when its init throws, so storing it first and closing it here too closed it
        // twice, and the second close could hit a descriptor an in-process server had just accepted
        // (libmicrohttpd aborts on the EBADF that follows).
        let fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError.connect(errno) }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let sourceAddress, !isV6 {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, sourceAddress, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if bound != 0 {
                let code = errno
                close(fd)
                throw ClientError.connect(code)
            }
        }
        var result: Int32
        if isV6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port)).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port)).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        if result != 0 {
            let code = errno
            close(fd)
            throw ClientError.connect(code)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    func setReceiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw ClientError.send(errno) }
            offset += sent
        }
    }

    /// Reads one response framed by Content-Length (no body when `head`).
    func readResponse(head: Bool = false) throws -> Response {
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = find([13, 10, 13, 10])
            if headerEnd == nil { try fill() }
        }
        guard let end = headerEnd else { throw ClientError.malformed("no header end") }
        let headText = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw ClientError.malformed(headText) }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = Response(status: status, headers: headers, body: [])
        let length = head ? 0 : Int(response.header("Content-Length") ?? "0") ?? 0
        while buffer.count < length { try fill() }
        response.body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return response
    }

    /// True when the server closes the connection (EOF or reset) before the receive timeout.
    func waitForClose() -> Bool {
        while true {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET || errno == EPIPE }
        }
    }

    /// True when the server has closed the connection (EOF or reset), without waiting.
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK))
        if count == 0 { return true }
        return count < 0 && errno != EAGAIN && errno != EWOULDBLOCK
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw ClientError.closed }
        buffer.append(contentsOf: chunk[..<count])
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for start in 0...(buffer.count - pattern.count)
        where buffer[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start
        }
        return nil
    }
}

extension RawHTTPClient {
    /// Sends `GET path` (keep-alive) and reads the response.
    func get(_ path: String, extraHeaders: String = "") throws -> Response {
        try send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extraHeaders)\r\n")
        return try readResponse()
    }

    /// Sends a JSON POST and reads the response.
    func postJSON(_ path: String, _ body: String) throws -> Response {
        try send(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return try readResponse()
    }
}

import Foundation

/// One HTTP request as handlers see it: everything is read, bounded and immutable.
///
/// `clientIP`, `scheme` and `host` are what the client used: taken from `X-Forwarded-*` headers only
/// when the peer (`remoteAddress`) is a configured trusted proxy, otherwise from the connection.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The protocol version from the request line, e.g. `HTTP/1.1`.
    public var httpVersion: String
    /// The path as sent (still percent-encoded), without the query; starts with `/`.
    public var path: String
    /// The query string as sent, without the `?`; empty when there is none. Never log it.
    public var rawQuery: String
    /// The decoded query pairs, in order.
    public var queryItems: [HTTPQueryItem]
    /// The request header fields.
    public var headers: HTTPHeaders
    /// The request body (at most the server's body limit).
    public var body: [UInt8]
    /// The IP address of the TCP peer (a proxy, when there is one).
    public var remoteAddress: String
    /// The client's IP address after trusted-proxy resolution.
    public var clientIP: String
    /// `http` or `https`, as the client used it.
    public var scheme: String
    /// The host the client asked for, lower-cased, without port; empty when absent.
    public var host: String
    /// A unique id for this request, echoed in the `X-Request-Id` response header and the log.
    public var requestID: String

    /// Creates a request; the server fills every field, tests pass what they need.
    public init(
        method: HTTPMethod, path: String, rawQuery: String = "", headers: HTTPHeaders = [:], body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1", clientIP: String? = nil, scheme: String = "http", host: String? = nil,
        requestID: String = "", httpVersion: String = "HTTP/1.1"
    ) {
        self.method = method
        self.httpVersion = httpVersion
        self.path = path
        self.rawQuery = rawQuery
        self.queryItems = HTTPQueryItem.parse(rawQuery)
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.clientIP = clientIP ?? remoteAddress
        self.scheme = scheme
        self.host = host ?? HTTPRequest.hostWithoutPort(headers["Host"] ?? "")
        self.requestID = requestID
    }

    /// Creates a request from a request target such as `/a/b?x=1` (path and query split here).
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        let (path, query) = HTTPRequest.splitTarget(target)
        self.init(method: method, path: path, rawQuery: query, headers: headers, body: body)
    }

    /// The first decoded value of a query parameter, or nil.
    public func query(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }

    /// The media type of the body (`Content-Type` without parameters, lower-cased), or nil.
    public var mediaType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        let end = value.utf8.firstIndex(of: UInt8(ascii: ";")) ?? value.endIndex
        let type = HTTPRequest.trimmingOWS(value[..<end])
        // Usually already lowercase: only then is the Unicode-aware lowercasing skipped.
        return type.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? type.lowercased() : type
    }

    /// Decodes a JSON body. Throws `415 unsupported_media_type` when `Content-Type` is not JSON and
    /// `400 invalid_request` when the body is not valid JSON for `T`.
    public func decodeJSON<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        guard mediaType == "application/json" else {
            throw HTTPError(
                status: 415, error: "unsupported_media_type", description: "Content-Type must be application/json")
        }
        do {
            return try decoder.decode(T.self, from: Data(body))
        } catch {
            throw HTTPError.invalidRequest("the body is not valid JSON for this request")
        }
    }

    /// Splits a request target into the path and the raw query.
    static func splitTarget(_ target: String) -> (path: String, query: String) {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target, "") }
        let path = String(target[..<mark])
        let query = String(target[target.utf8.index(after: mark)...])
        return (path, query)
    }

    /// `Host` header value without port, lower-cased (`[::1]:8080` → `[::1]`).
    static func hostWithoutPort(_ value: String) -> String {
        // The usual Host is already lowercase ASCII with no surrounding space.
        let plain = value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !($0 >= 0x41 && $0 <= 0x5A) }
        let trimmed = plain ? value : trimmingOWS(value).lowercased()
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else { return trimmed }
            return String(trimmed[...close])
        }
        guard let colon = trimmed.lastIndex(of: ":") else { return trimmed }
        return String(trimmed[..<colon])
    }

    /// `text` without the optional whitespace (SP and HTAB, RFC 9110 §5.6.3) around it; cheaper
    /// than Foundation's `trimmingCharacters`, which bridges to NSString on every request.
    static func trimmingOWS(_ value: some StringProtocol) -> String {
        let text = Substring(value)
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        let last = utf8.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) ?? first
        return String(text[first...last])
    }
}

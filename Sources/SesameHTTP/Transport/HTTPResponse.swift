import Foundation

/// The response a handler returns: status, header fields and a body held in memory.
public struct HTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Response header fields (`Content-Length` is added by the server).
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int = 200, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The encoder `json(_:status:)` uses: sorted keys so output is stable.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A JSON response from an `Encodable` value (`Content-Type: application/json`).
    /// Throws when the value cannot be encoded, which the server turns into a generic 500.
    public static func json<T: Encodable>(_ value: T, status: Int = 200, encoder: JSONEncoder? = nil) throws
        -> HTTPResponse
    {
        let data = try (encoder ?? makeEncoder()).encode(value)
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: [UInt8](data))
    }

    /// A JSON response from bytes already encoded.
    public static func json(bytes: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: bytes)
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// A `text/html; charset=utf-8` response.
    public static func html(_ html: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(html.utf8))
    }

    /// A response with no body (204 by default).
    public static func empty(status: Int = 204) -> HTTPResponse { HTTPResponse(status: status) }

    /// A redirect to `location` (302 Found by default; 303 or 307 when asked).
    public static func redirect(to location: String, status: Int = 302) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Location": location])
    }
}

import Foundation

/// An error that knows its wire form: a status and `{"error": …, "error_description": …}`.
///
/// Throw it (or any `HTTPErrorConvertible`) from a handler. Any other error becomes a generic
/// 500 `server_error` whose body reveals nothing; only its type name is logged.
public struct HTTPError: Error, Sendable, Equatable, HTTPErrorConvertible {
    /// The HTTP status code.
    public var status: Int
    /// The stable error code, e.g. `invalid_request`.
    public var error: String
    /// Human text saying precisely what was wrong; never a secret or an echo of input secrets.
    public var errorDescription: String
    /// Extra response headers, e.g. `Allow` or `Retry-After`.
    public var headers: [String: String]

    /// Creates an error.
    public init(status: Int, error: String, description: String, headers: [String: String] = [:]) {
        self.status = status
        self.error = error
        self.errorDescription = description
        self.headers = headers
    }

    /// Itself.
    public var httpError: HTTPError { self }

    /// The JSON response for this error (`Content-Type: application/json`, `Cache-Control: no-store`).
    public var response: HTTPResponse { response(style: .oauth) }

    /// The response for this error in `style`: OAuth's `{"error","error_description"}` as
    /// `application/json`, or an RFC 9457 problem. A problem is labelled `application/problem+json`
    /// when the request's `Accept` names that type (RFC 9457 §3), else `application/json`: Auth0.Android
    /// reads an error body only when its Content-Type contains "application/json".
    public func response(style: HTTPErrorStyle, accept: String? = nil) -> HTTPResponse {
        var response: HTTPResponse
        switch style {
        case .oauth:
            response = HTTPResponse.json(bytes: Array(jsonBody.utf8), status: status)
        case .problem:
            response = HTTPResponse.json(bytes: Array(problemBody.utf8), status: status)
            if accept?.lowercased().contains("application/problem+json") == true {
                response.headers.replaceOrAdd(name: "Content-Type", value: "application/problem+json")
            }
        }
        response.headers.add(name: "Cache-Control", value: "no-store")
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            response.headers.replaceOrAdd(name: name, value: value)
        }
        return response
    }

    /// `{"error":…,"error_description":…}` with JSON string escaping.
    var jsonBody: String {
        "{\"error\":\(JSONText.quote(error)),\"error_description\":\(JSONText.quote(errorDescription))}"
    }

    /// The RFC 9457 (was 7807) problem: `type` is `urn:sesame:error:<error>`, `title` the stable
    /// error code (Auth0.Android reads it as the code), `detail` the description.
    var problemBody: String {
        "{\"type\":\(JSONText.quote("urn:sesame:error:" + error)),\"status\":\(status),"
            + "\"title\":\(JSONText.quote(error)),\"detail\":\(JSONText.quote(errorDescription))}"
    }

    /// 400 `invalid_request` with a description of the problem.
    public static func invalidRequest(_ description: String) -> HTTPError {
        HTTPError(status: 400, error: "invalid_request", description: description)
    }

    /// 404 `not_found`.
    public static func notFound(_ description: String = "not found") -> HTTPError {
        HTTPError(status: 404, error: "not_found", description: description)
    }

    /// 405 `method_not_allowed` with the `Allow` header listing `allowed`.
    public static func methodNotAllowed(allowed: [HTTPMethod]) -> HTTPError {
        HTTPError(
            status: 405, error: "method_not_allowed", description: "method not allowed for this path",
            headers: ["Allow": allowed.map(\.rawValue).joined(separator: ", ")])
    }

    /// 413 `request_too_large`.
    public static func requestTooLarge(limit: Int) -> HTTPError {
        HTTPError(status: 413, error: "request_too_large", description: "the request body exceeds \(limit) bytes")
    }

    /// 429 `too_many_requests` with `Retry-After` in whole seconds (at least 1).
    public static func tooManyRequests(retryAfterSeconds: Int) -> HTTPError {
        HTTPError(
            status: 429, error: "too_many_requests", description: "too many requests; retry later",
            headers: ["Retry-After": String(max(1, retryAfterSeconds))])
    }

    /// 500 `server_error` with a body that reveals nothing.
    public static let internalError = HTTPError(
        status: 500, error: "server_error", description: "internal error")

    /// 503 `temporarily_unavailable`.
    public static func temporarilyUnavailable(_ description: String = "temporarily unavailable") -> HTTPError {
        HTTPError(status: 503, error: "temporarily_unavailable", description: description)
    }
}

/// How a group of routes writes its errors.
public enum HTTPErrorStyle: Sendable, Equatable {
    /// `{"error": …, "error_description": …}` (RFC 6749 §5.2), the Authentication and Management APIs.
    case oauth
    /// `{"type","status","title","detail"}` as `application/problem+json` (RFC 9457), the My Account API.
    case problem
}

/// An error that maps itself to an `HTTPError`; conform service errors to it in the handler layer.
public protocol HTTPErrorConvertible: Error {
    /// The wire form of this error.
    var httpError: HTTPError { get }
}

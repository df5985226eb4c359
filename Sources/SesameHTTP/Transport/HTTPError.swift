import Foundation
import WebAuthn

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
    /// Extra response headers, e.g. `Allow` or `Retry-After`; a name may repeat (`Set-Cookie`).
    public var headers: HTTPHeaders
    /// Members the JSON body carries beyond the style's own (say `mfa_token`), in order. In the
    /// database style a member named like one of the style's (`name`, `description`) replaces it.
    public var members: [JSONMember]

    /// Creates an error.
    public init(
        status: Int, error: String, description: String, headers: HTTPHeaders = [:], members: [JSONMember] = []
    ) {
        self.status = status
        self.error = error
        self.errorDescription = description
        self.headers = headers
        self.members = members
    }

    /// Itself.
    public var httpError: HTTPError { self }

    /// The JSON response for this error (`Content-Type: application/json`, `Cache-Control: no-store`).
    public var response: HTTPResponse { response(style: .oauth) }

    /// The response for this error in `style`: OAuth's `{"error","error_description"}` as
    /// `application/json`, an RFC 9457 problem, or a page. A problem is labelled
    /// `application/problem+json` when the request's `Accept` names that type (RFC 9457 §3), else
    /// `application/json`: Auth0.Android reads an error body only when its Content-Type contains
    /// "application/json".
    public func response(style: HTTPErrorStyle, accept: String? = nil) -> HTTPResponse {
        var response: HTTPResponse
        switch style {
        case .oauth:
            response = HTTPResponse.json(bytes: Array(jsonBody.utf8), status: status)
        case .database:
            response = HTTPResponse.json(bytes: databaseBody, status: status)
        case .problem:
            response = HTTPResponse.json(bytes: Array(problemBody.utf8), status: status)
            if accept?.lowercased().contains("application/problem+json") == true {
                response.headers.replaceOrAdd(name: "Content-Type", value: "application/problem+json")
            }
        case .html:
            response = HTTPResponse.html(pageBody, status: status)
            // The page runs nothing and loads only the hosted pages' stylesheet; no site may frame it.
            response.headers.add(
                name: "Content-Security-Policy",
                value:
                    "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
            response.headers.add(name: "X-Frame-Options", value: "DENY")
            response.headers.add(name: "Referrer-Policy", value: "no-referrer")
        }
        response.headers.add(name: "Cache-Control", value: "no-store")
        // Names the error sets replace the defaults; a name it repeats (Set-Cookie) stays repeated.
        for name in Set(headers.fields.map { $0.name.lowercased() }) { response.headers.remove(name: name) }
        for field in headers { response.headers.add(name: field.name, value: field.value) }
        return response
    }

    /// A small page saying what went wrong, every text HTML-escaped.
    var pageBody: String {
        let title = Self.reason(status)
        let page: HTML =
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            + "<title>\(title)</title><link rel=\"stylesheet\" href=\"/u/assets/pages.css\"></head><body><main>"
            + "<h1>\(title)</h1><p>\(errorDescription)</p>"
            + "<p><code>\(error)</code></p></main></body></html>"
        return page.markup
    }

    /// The reason phrase a page shows for `status`.
    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad request"
        case 401: "Sign-in required"
        case 403: "Not allowed"
        case 404: "Not found"
        case 405: "Method not allowed"
        case 409: "Conflict"
        case 413: "Request too large"
        case 429: "Too many requests"
        case 503: "Temporarily unavailable"
        case 500...: "Something went wrong"
        default: "Request refused"
        }
    }

    /// `{"error":…,"error_description":…}` with JSON string escaping, then `members`.
    var jsonBody: String {
        var body = "{\"error\":\(JSONText.quote(error)),\"error_description\":\(JSONText.quote(errorDescription))"
        for member in members {
            body += "," + JSONText.quote(member.name) + ":" + String(decoding: member.value.serialized, as: UTF8.self)
        }
        return body + "}"
    }

    /// Auth0's database-connection error (`/dbconnections/*`): `name`, `code`, `description`,
    /// `statusCode`, and OAuth's `error` and `error_description` too (Auth0.swift reads either).
    var databaseBody: [UInt8] {
        var fields: [JSONMember] = [
            JSONMember(name: "name", value: .string(Self.databaseName(status))),
            JSONMember(name: "code", value: .string(error)),
            JSONMember(name: "description", value: .string(errorDescription)),
            JSONMember(name: "statusCode", value: .number(String(status))),
            JSONMember(name: "error", value: .string(error)),
            JSONMember(name: "error_description", value: .string(errorDescription)),
        ]
        for member in members {
            if let index = fields.firstIndex(where: { $0.name == member.name }) {
                fields[index] = member
            } else {
                fields.append(member)
            }
        }
        return JSONValue.object(fields).serialized
    }

    /// Auth0's `name` for a database-connection error of `status`.
    static func databaseName(_ status: Int) -> String {
        switch status {
        case 401: "UnauthorizedError"
        case 403: "ForbiddenError"
        case 404: "NotFoundError"
        case 429: "TooManyRequestsError"
        case 500...: "APIError"
        default: "BadRequestError"
        }
    }

    /// The RFC 9457 (was 7807) problem: `type` is `urn:sesame:error:<error>`, `title` the stable
    /// error code (Auth0.Android reads it as the code), `detail` the description.
    /// The error's own members follow as extension members (§3.2).
    var problemBody: String {
        var body =
            "{\"type\":\(JSONText.quote("urn:sesame:error:" + error)),\"status\":\(status),"
            + "\"title\":\(JSONText.quote(error)),\"detail\":\(JSONText.quote(errorDescription))"
        for member in members where !["type", "status", "title", "detail"].contains(member.name) {
            body += "," + JSONText.quote(member.name) + ":" + String(decoding: member.value.serialized, as: UTF8.self)
        }
        return body + "}"
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
}

/// How a group of routes writes its errors.
public enum HTTPErrorStyle: Sendable, Equatable {
    /// `{"error": …, "error_description": …}` (RFC 6749 §5.2), the Authentication and Management APIs.
    case oauth
    /// `{"type","status","title","detail"}` as `application/problem+json` (RFC 9457), the My Account API.
    case problem
    /// Auth0's database-connection errors, `{"name","code","description","statusCode"}` with
    /// `error` and `error_description` beside them (`/dbconnections/*`).
    case database
    /// A small HTML page (`text/html`), for routes a person's browser opens.
    case html
}

/// An error that maps itself to an `HTTPError`; conform service errors to it in the handler layer.
public protocol HTTPErrorConvertible: Error {
    /// The wire form of this error.
    var httpError: HTTPError { get }
}

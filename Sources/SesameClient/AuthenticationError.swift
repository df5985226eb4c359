import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every failure of the SDK: the server's `error` / `error_description` and HTTP status when the
/// server answered, or a local code when it did not. `kind` and the `is…` properties let an app
/// tell apart what to show: no network, the user cancelled, the session is gone (sign in again),
/// or try again later.
public struct AuthenticationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the failure came from.
    public enum Kind: Sendable, Equatable {
        /// The server answered with an error status (`code` is its `error`).
        case server
        /// The request never got an answer: no route, connection refused or lost, DNS.
        case network
        /// The user (or the app, by cancelling the task) cancelled.
        case cancelled
        /// The credentials are no longer valid: a rejected bearer token, or a refresh token the
        /// server refused. The user has to sign in again.
        case unauthorized
        /// The request took longer than the configured timeout.
        case timeout
        /// The server's answer was not what the API documents (not JSON, missing member).
        case invalidResponse
        /// The passkey ceremony failed on this device (no credential, bad options, authenticator error).
        case passkey
        /// A device key could not be made or used on this device (no such key, the Secure Enclave
        /// refused, the biometry it was bound to changed).
        case deviceKey
        /// Reading or writing stored credentials failed (`CredentialsStore`).
        case storage
    }

    /// Where the failure came from.
    public var kind: Kind
    /// The server's `error` (`invalid_grant`, `invalid_client`, …) or a local code
    /// (`network_error`, `timeout`, `cancelled`, `invalid_response`, `passkey_error`, `device_key_error`, …).
    public var code: String
    /// The server's `error_description`, or a local explanation. Safe to log; never a secret.
    public var errorDescription: String
    /// The HTTP status when the server answered.
    public var statusCode: Int?
    /// Seconds the server asked to wait (`Retry-After` on 429/503), when it said.
    public var retryAfter: TimeInterval?
    /// The server's error body, for the payloads some errors carry (`mfaRequiredPayload`,
    /// `passwordPolicy`).
    public var body: Data?

    /// An error with every member given.
    public init(
        kind: Kind, code: String, errorDescription: String, statusCode: Int? = nil, retryAfter: TimeInterval? = nil,
        body: Data? = nil
    ) {
        self.kind = kind
        self.code = code
        self.errorDescription = errorDescription
        self.statusCode = statusCode
        self.retryAfter = retryAfter
        self.body = body
    }

    /// Whether trying the same call again later may succeed: network failures, timeouts, 429, 502–504.
    public var isRetryable: Bool {
        switch kind {
        case .network, .timeout: return true
        case .server: return [429, 502, 503, 504].contains(statusCode ?? 0)
        case .cancelled, .unauthorized, .invalidResponse, .passkey, .deviceKey, .storage: return false
        }
    }

    /// Whether no answer came back (network failure or timeout).
    public var isNetworkError: Bool { kind == .network || kind == .timeout }

    /// Whether the user or the app cancelled.
    public var isCancelled: Bool { kind == .cancelled }

    /// Whether the server refused the credentials: any 401 (`invalid_client`, `invalid_token`),
    /// or a refresh token it no longer accepts.
    public var isUnauthorized: Bool { kind == .unauthorized || statusCode == 401 }

    /// "code: description (HTTP status)", for logs and command lines.
    public var description: String {
        var text = "\(code): \(errorDescription)"
        if let statusCode { text += " (HTTP \(statusCode))" }
        return text
    }

    // MARK: Local errors

    /// The user or the app cancelled.
    public static func cancelled(_ description: String = "the operation was cancelled") -> AuthenticationError {
        AuthenticationError(kind: .cancelled, code: "cancelled", errorDescription: description)
    }

    /// A passkey ceremony failed on this device.
    public static func passkey(_ description: String, code: String = "passkey_error") -> AuthenticationError {
        AuthenticationError(kind: .passkey, code: code, errorDescription: description)
    }

    /// A device key could not be made or used on this device.
    public static func deviceKey(_ description: String, code: String = "device_key_error") -> AuthenticationError {
        AuthenticationError(kind: .deviceKey, code: code, errorDescription: description)
    }

    /// The server's answer does not follow the API.
    public static func invalidResponse(_ description: String, statusCode: Int? = nil) -> AuthenticationError {
        AuthenticationError(
            kind: .invalidResponse, code: "invalid_response", errorDescription: description, statusCode: statusCode)
    }

    /// Stored credentials could not be read or written.
    public static func storage(_ description: String) -> AuthenticationError {
        AuthenticationError(kind: .storage, code: "credentials_store_error", errorDescription: description)
    }

    /// Maps whatever a transport threw: `URLError` by code, task cancellation to `cancelled`,
    /// an `AuthenticationError` as is, anything else to a network error.
    public static func transport(_ error: any Error) -> AuthenticationError {
        if let error = error as? AuthenticationError { return error }
        if error is CancellationError { return .cancelled() }
        if let error = error as? URLError {
            switch error.code {
            case .timedOut:
                return AuthenticationError(
                    kind: .timeout, code: "timeout", errorDescription: "the server did not answer in time")
            case .cancelled:
                return .cancelled("the request was cancelled")
            default:
                return AuthenticationError(
                    kind: .network, code: "network_error",
                    errorDescription:
                        "cannot reach the server: \(error.localizedDescription) (URLError \(error.code.rawValue))"
                )
            }
        }
        return AuthenticationError(
            kind: .network, code: "network_error", errorDescription: "cannot reach the server: \(error)")
    }

    /// Maps an error status and body: the server's `{"error","error_description"}`, or the My
    /// Account API's RFC 9457 problem `{"type","title","detail"}` (code = `title`), when it sent
    /// one; a 401 `invalid_token` (a rejected bearer token) is `unauthorized`.
    static func server(status: Int, body: Data, retryAfter: TimeInterval?) -> AuthenticationError {
        let decoded =
            (try? JSONDecoder().decode(ServerErrorBody.self, from: body))
            ?? (try? JSONDecoder().decode(ProblemBody.self, from: body)).map {
                ServerErrorBody(error: $0.title, errorDescription: $0.detail)
            }
        guard let response = decoded else {
            let text = String(decoding: body.prefix(200), as: UTF8.self)
            return AuthenticationError(
                kind: .server, code: "http_\(status)",
                errorDescription: text.isEmpty ? "the server answered HTTP \(status)" : text,
                statusCode: status, retryAfter: retryAfter)
        }
        let kind: Kind = status == 401 && response.error == "invalid_token" ? .unauthorized : .server
        return AuthenticationError(
            kind: kind, code: response.error,
            errorDescription: response.errorDescription ?? "the server answered \(response.error)", statusCode: status,
            retryAfter: retryAfter, body: body.count <= 65_536 ? body : nil)
    }
}

/// An RFC 9457 problem (the My Account API's errors).
private struct ProblemBody: Decodable {
    var title: String
    var detail: String?
}

/// An error body, with a description that may be missing (other servers, proxies).
private struct ServerErrorBody: Decodable {
    var error: String
    var errorDescription: String?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}

import Foundation
import SesameWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builds requests against the configured domain, sends them through the transport and turns
/// every failure into an `AuthenticationError`.
struct APIClient: Sendable {
    let configuration: SesameConfiguration
    let transport: any HTTPTransport

    /// Sends a request and returns the body of a 2xx answer; any other status is a server error.
    func send(
        _ method: String, _ path: String, json: WireBody? = nil, bearer: String? = nil
    ) async throws(AuthenticationError) -> (Data, HTTPURLResponse) {
        try await send(method, path, body: json.map(WireValue.object), bearer: bearer)
    }

    /// Sends a request with any JSON body (an object built here, or a wire type's encoding).
    func send(
        _ method: String, _ path: String, body: WireValue?, bearer: String? = nil
    ) async throws(AuthenticationError) -> (Data, HTTPURLResponse) {
        guard let url = URL(string: configuration.base + path) else {
            throw AuthenticationError(
                kind: .invalidResponse, code: "invalid_configuration",
                errorDescription: "cannot build a URL from \(configuration.domain) and \(path)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = configuration.timeout
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let clientInfo = configuration.clientInfo {
            request.setValue(clientInfo.headerValue, forHTTPHeaderField: SesameClientInfo.headerName)
        }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.json.utf8)
        }
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(request)
        } catch {
            throw AuthenticationError.transport(error)
        }
        guard (200..<300).contains(response.statusCode) else {
            let retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap(TimeInterval.init)
            throw AuthenticationError.server(status: response.statusCode, body: data, retryAfter: retryAfter)
        }
        return (data, response)
    }

    /// Sends a request and decodes a 2xx body as `T`.
    func send<T: Decodable>(
        _ type: T.Type, _ method: String, _ path: String, json: WireBody? = nil, bearer: String? = nil
    ) async throws(AuthenticationError) -> T {
        let (data, response) = try await send(method, path, json: json, bearer: bearer)
        return try Self.decode(type, from: data, status: response.statusCode)
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data, status: Int?) throws(AuthenticationError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw AuthenticationError.invalidResponse(
                "the server's answer is not a valid \(type): \(describe(error))", statusCode: status)
        }
    }

    /// A query string, `?name=value&…`, each part percent-encoded (so `+` is never a space).
    static func query(_ items: [(String, String)]) -> String {
        "?"
            + items.map { WebAuthTransaction.encode($0.0) + "=" + WebAuthTransaction.encode($0.1) }
            .joined(separator: "&")
    }

    /// Percent-encodes one path segment (ids such as `passkey|…` carry `|`).
    static func segment(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            let location = context.codingPath.map(\.stringValue).joined(separator: ".")
            return location.isEmpty ? context.debugDescription : "\(location): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

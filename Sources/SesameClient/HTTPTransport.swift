import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one HTTP request and returns the body and response, whatever the status. Apps and tests
/// inject their own (a stub, a pinned session, a proxy); `URLSessionTransport` is the default.
/// Throw `URLError` (or an `AuthenticationError`) for failures below HTTP.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the body and the HTTP response for any status.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// The default transport over `URLSession`. Every request carries the configuration's timeout
/// (`URLRequest.timeoutInterval`).
public struct URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession

    /// A transport over `session` (the shared session by default).
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Sends the request; a non-HTTP response throws `URLError(.badServerResponse)`.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

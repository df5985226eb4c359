/// What the transport knows about a request beyond its bytes, filled in by the server and router
/// and handed to every handler. Tenant resolution and authentication are the handlers' business.
public struct RequestContext: Sendable {
    /// The request's unique id (also in the `X-Request-Id` response header and the request log).
    public var requestID: String
    /// The client's IP address after trusted-proxy resolution (also the default rate-limit key).
    public var clientIP: String
    /// The matched route pattern, e.g. `/api/v2/clients/{id}`; the label used in metrics and logs.
    public var routePattern: String
    /// Values of the `{name}` segments of the matched pattern, percent-decoded.
    public var pathParameters: [String: String]

    /// Creates a context; the router fills `routePattern` and `pathParameters` when it matches.
    public init(
        requestID: String = "", clientIP: String = "", routePattern: String = "",
        pathParameters: [String: String] = [:]
    ) {
        self.requestID = requestID
        self.clientIP = clientIP
        self.routePattern = routePattern
        self.pathParameters = pathParameters
    }

    /// The value of path parameter `name`; throws 404 `not_found` when the route has no such segment.
    public func pathParameter(_ name: String) throws -> String {
        guard let value = pathParameters[name] else { throw HTTPError.notFound() }
        return value
    }
}

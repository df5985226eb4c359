import SesameCrypto

/// The request pipeline between the socket and the router, usable in-process (tests) and by `HTTPServer`:
/// trusted-proxy resolution, request id, optional global rate limit, routing, error mapping, metrics, log.
public final class HTTPResponder: Sendable {
    /// The routes.
    public let router: Router
    /// Peers whose `X-Forwarded-*` headers are believed.
    public let trustedProxies: TrustedProxies
    /// A limiter applied to every request by client IP before routing, or nil.
    public let rateLimiter: RateLimiter?
    /// Where request counts and latencies are recorded.
    public let metrics: Metrics
    /// Where the request lines go.
    public let log: RequestLog

    /// The route label for requests that matched no route (raw paths never become labels).
    public static let unmatchedRoute = "unmatched"

    /// Creates a pipeline.
    public init(
        router: Router, trustedProxies: TrustedProxies = .none, rateLimiter: RateLimiter? = nil,
        metrics: Metrics = Metrics(), log: RequestLog = RequestLog()
    ) {
        self.router = router
        self.trustedProxies = trustedProxies
        self.rateLimiter = rateLimiter
        self.metrics = metrics
        self.log = log
    }

    /// Answers a request as received from the connection (`remoteAddress` = the TCP peer).
    /// `startedAt` is the `MonotonicClock` reading when the request began (now if nil). With `rejection`
    /// (e.g. the transport's 413) no handler runs, but the request is labelled, counted and logged the same way.
    /// Never throws: every error becomes its JSON wire form, unexpected ones a generic 500.
    public func respond(
        to received: HTTPRequest, connectionScheme: String = "http", startedAt: Double? = nil,
        rejection: HTTPError? = nil
    ) -> HTTPResponse {
        let start = startedAt ?? MonotonicClock.now()
        var request = received
        let origin = trustedProxies.resolve(
            peer: received.remoteAddress, connectionScheme: connectionScheme, headers: received.headers)
        request.clientIP = origin.clientIP
        request.scheme = origin.scheme
        request.host = origin.host
        request.requestID = requestID(for: received)
        var context = RequestContext(requestID: request.requestID, clientIP: request.clientIP)

        var response: HTTPResponse
        do {
            if let rejection {
                context.routePattern = router.pattern(for: request.method, path: request.path) ?? ""
                throw rejection
            }
            if let problem = HostHeader.problem(received) { throw HTTPError.invalidRequest(problem) }
            try rateLimiter?.check(request.clientIP)
            response = try router.respond(to: request, context: &context)
        } catch let error as any HTTPErrorConvertible {
            response = error.httpError.response(
                style: router.errorStyle(for: request.method, path: request.path), accept: request.headers["Accept"])
        } catch {
            // Only the type name: an error's message may quote request input.
            log.log(
                .error, "handler failed",
                fields: [
                    ("request_id", request.requestID), ("route", context.routePattern),
                    ("error_type", String(reflecting: type(of: error))),
                ])
            response = HTTPError.internalError.response(
                style: router.errorStyle(for: request.method, path: request.path), accept: request.headers["Accept"])
        }
        response.headers.replaceOrAdd(name: "X-Request-Id", value: request.requestID)
        // Browsers must take every response as the type it declares (no sniffing into HTML).
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")

        let route = context.routePattern.isEmpty ? Self.unmatchedRoute : context.routePattern
        let method = Self.knownMethods.contains(request.method) ? request.method.rawValue : "other"
        let elapsed = max(0, MonotonicClock.now() - start)
        metrics.httpRequests.increment([route, method, String(response.status)])
        metrics.httpDuration.observe(elapsed, [route])
        log.request(
            requestID: request.requestID, method: HTTPMethod(method), route: route, status: response.status,
            latencySeconds: elapsed, clientIP: request.clientIP)
        return response
    }

    /// Methods kept as metric labels; anything else is counted as `other`.
    static let knownMethods: Set<HTTPMethod> = [.get, .head, .post, .put, .patch, .delete, .options]

    /// A proxy-supplied `X-Request-Id` when the peer is trusted and the id is short and plain; else a new one.
    private func requestID(for request: HTTPRequest) -> String {
        if trustedProxies.isTrusted(request.remoteAddress), let given = request.headers["X-Request-Id"],
            (1...64).contains(given.utf8.count),
            given.utf8.allSatisfy({ Self.isIDByte($0) })
        {
            return given
        }
        // 128 random bits as 32 hex digits, from the CSPRNG's pool (no system call per request);
        // the system generator only if libcrypto's fails.
        var generator = SystemRandomNumberGenerator()
        let bytes =
            (try? SystemRandom().bytes(count: 16))
            ?? (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        var text = [UInt8]()
        text.reserveCapacity(32)
        for byte in bytes {
            text.append(Self.hexDigits[Int(byte >> 4)])
            text.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func isIDByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }
}

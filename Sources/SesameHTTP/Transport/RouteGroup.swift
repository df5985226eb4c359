/// A handler of a route group: it gets the group's typed context instead of the transport's.
public typealias GroupHandler<Context> = @Sendable (HTTPRequest, Context) throws -> HTTPResponse

/// A handler whose route declared its body: it reads the body by the route's table when it is
/// ready to (`BodyReader.read()`), after its own authorization, so a caller without the right
/// never learns what the body lacked.
typealias BodyHandler<Context> = @Sendable (HTTPRequest, BodyReader, Context) throws -> HTTPResponse

/// A group of routes that share a typed request context and a chain of middleware.
///
/// The root group hands its handlers the transport's `RequestContext`. Each `derived` group turns
/// its parent's context into a richer one (say the tenant, resolved once from the Host, then the
/// principal behind the bearer token), and each `wrapped` group puts a middleware around its
/// handlers (a rate limit, later a session or CSRF check). The work runs in the order the groups were
/// made, outermost first, and only for a request that matched one of the group's routes, so a
/// wrong method on a known path is still 405 and never costs a token lookup.
///
/// A group also says how its errors are written (`HTTPErrorStyle`), so a page group answers in
/// HTML and an API group in JSON. Register the routes into a `Router` with `Router.add(_:)`.
public struct RouteGroup<Context>: Sendable {
    /// Runs the group's chain for one request, then `handler` with the context it made.
    typealias Chain =
        @Sendable (HTTPRequest, RequestContext, (HTTPRequest, Context) throws -> HTTPResponse) throws ->
        HTTPResponse

    /// How the group's errors (its routing errors under `pathPrefix` too) are written.
    public let errorStyle: HTTPErrorStyle
    /// Paths under this prefix that match no route get the group's error style (nil: only its routes).
    public let pathPrefix: String?
    let chain: Chain
    var routes:
        [(method: HTTPMethod, pattern: String, body: RequestBody?, query: RequestQuery?, handler: HTTPHandler)] =
            []

    init(errorStyle: HTTPErrorStyle, pathPrefix: String?, chain: @escaping Chain) {
        self.errorStyle = errorStyle
        self.pathPrefix = pathPrefix
        self.chain = chain
    }

    /// A child group whose handlers get `derive`'s context, made from this group's after its chain
    /// ran. `derive` throws to refuse the request (an unknown tenant, a bad token). The child has
    /// no routes of its own yet; `errorStyle` and `pathPrefix` default to this group's.
    public func derived<Child>(
        errorStyle: HTTPErrorStyle? = nil, pathPrefix: String? = nil,
        _ derive: @escaping @Sendable (HTTPRequest, Context) throws -> Child
    ) -> RouteGroup<Child> {
        let parent = chain
        return RouteGroup<Child>(errorStyle: errorStyle ?? self.errorStyle, pathPrefix: pathPrefix ?? self.pathPrefix) {
            request, base, handler in
            try parent(request, base) { request, context in try handler(request, try derive(request, context)) }
        }
    }

    /// A child group whose handlers run inside `middleware`, which may refuse the request, change
    /// it or its context before calling `next`, or change the response after.
    public func wrapped(
        _ middleware:
            @escaping @Sendable (
                HTTPRequest, Context, _ next: (HTTPRequest, Context) throws -> HTTPResponse
            ) throws -> HTTPResponse
    ) -> RouteGroup<Context> {
        let parent = chain
        return RouteGroup(errorStyle: errorStyle, pathPrefix: pathPrefix) { request, base, handler in
            try parent(request, base) { request, context in try middleware(request, context, handler) }
        }
    }

    /// Registers `handler` for `method` on `pattern`.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, handler: @escaping GroupHandler<Context>) {
        let chain = self.chain
        routes.append((method, pattern, nil, nil, { request, base in try chain(request, base, handler) }))
    }

    /// Registers a `GET` handler (which also serves `HEAD`) that reads the parameters of `query`'s
    /// table; the table is also what the OpenAPI document says of the operation's query.
    mutating func get(_ pattern: String, query: RequestQuery, handler: @escaping GroupHandler<Context>) {
        let chain = self.chain
        routes.append((.get, pattern, nil, query, { request, base in try chain(request, base, handler) }))
    }

    /// Registers `handler` for `method` on `pattern`, with a reader of the body by `body`'s table.
    /// The table is also what the OpenAPI document says of the operation's request body.
    mutating func add(
        _ method: HTTPMethod, _ pattern: String, body: RequestBody, handler: @escaping BodyHandler<Context>
    ) {
        let chain = self.chain
        routes.append(
            (
                method, pattern, body, nil,
                { request, base in
                    try chain(request, base) { request, context in
                        try handler(request, BodyReader(request: request, declared: body), context)
                    }
                }
            ))
    }

    /// Registers a `POST` handler that reads its body by `body`'s table.
    mutating func post(_ pattern: String, body: RequestBody, handler: @escaping BodyHandler<Context>) {
        add(.post, pattern, body: body, handler: handler)
    }
    /// Registers a `PUT` handler that reads its body by `body`'s table.
    mutating func put(_ pattern: String, body: RequestBody, handler: @escaping BodyHandler<Context>) {
        add(.put, pattern, body: body, handler: handler)
    }
    /// Registers a `PATCH` handler that reads its body by `body`'s table.
    mutating func patch(_ pattern: String, body: RequestBody, handler: @escaping BodyHandler<Context>) {
        add(.patch, pattern, body: body, handler: handler)
    }

    /// Registers a `GET` handler (which also serves `HEAD`).
    public mutating func get(_ pattern: String, handler: @escaping GroupHandler<Context>) {
        add(.get, pattern, handler: handler)
    }
    /// Registers a `POST` handler.
    public mutating func post(_ pattern: String, handler: @escaping GroupHandler<Context>) {
        add(.post, pattern, handler: handler)
    }
    /// Registers a `PUT` handler.
    public mutating func put(_ pattern: String, handler: @escaping GroupHandler<Context>) {
        add(.put, pattern, handler: handler)
    }
    /// Registers a `PATCH` handler.
    public mutating func patch(_ pattern: String, handler: @escaping GroupHandler<Context>) {
        add(.patch, pattern, handler: handler)
    }
    /// Registers a `DELETE` handler.
    public mutating func delete(_ pattern: String, handler: @escaping GroupHandler<Context>) {
        add(.delete, pattern, handler: handler)
    }
}

extension RouteGroup where Context == RequestContext {
    /// A root group: handlers get the transport's context, errors are written in `errorStyle`.
    public static func root(errorStyle: HTTPErrorStyle = .oauth, pathPrefix: String? = nil) -> RouteGroup {
        RouteGroup(errorStyle: errorStyle, pathPrefix: pathPrefix) { request, base, handler in
            try handler(request, base)
        }
    }
}

extension RouteGroup {
    /// A child group whose requests first spend a token of `limiter`, keyed by the client's
    /// address (`IPAddressRange.clientKey`); nil: this group itself.
    public func limited(by limiter: RateLimiter?) -> RouteGroup {
        guard let limiter else { return self }
        return wrapped { request, context, next in
            try limiter.check(IPAddressRange.clientKey(request.clientIP))
            return try next(request, context)
        }
    }
}

extension Router {
    /// Registers every route of `group`, and its error style for its routes and its path prefix.
    public mutating func add<Context>(_ group: RouteGroup<Context>) {
        for route in group.routes {
            add(route.method, route.pattern, errorStyle: group.errorStyle, handler: route.handler)
            if let body = route.body { requestBodies[OperationKey(route.method, route.pattern)] = body }
            if let query = route.query { requestQueries[OperationKey(route.method, route.pattern)] = query }
        }
        if let prefix = group.pathPrefix { setErrorStyle(group.errorStyle, forPathsUnder: prefix) }
    }
}

/// A route handler: runs synchronously on a server worker thread and returns the response or throws
/// (an `HTTPErrorConvertible` becomes its wire form; anything else a generic 500).
public typealias HTTPHandler = @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse

/// Maps `(method, path pattern)` to handlers. Patterns are literal segments and `{name}` segments,
/// e.g. `/api/v2/clients/{id}`. Literal segments win over parameters when both match.
///
/// Unknown path → 404 `not_found`; known path with another method → 405 `method_not_allowed` with
/// `Allow`; `HEAD` runs the `GET` handler (the server sends no body); `OPTIONS` → 204 with `Allow`.
public struct Router: Sendable {
    /// What a path and method resolve to.
    public enum Match: Sendable {
        /// A handler for this method; `pattern` is the route pattern, `parameters` its decoded values.
        case handler(HTTPHandler, pattern: String, parameters: [String: String], errorStyle: HTTPErrorStyle?)
        /// The path is known but the method is not; `allowed` lists what is.
        case methodNotAllowed(pattern: String, allowed: [HTTPMethod], errorStyle: HTTPErrorStyle?)
        /// An `OPTIONS` request on a known path with no explicit `OPTIONS` handler.
        case options(pattern: String, allowed: [HTTPMethod])
        /// No pattern matches the path.
        case notFound
    }

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)

        var isLiteral: Bool {
            if case .literal = self { return true }
            return false
        }
        var text: String {
            switch self {
            case .literal(let text), .parameter(let text): text
            }
        }
    }

    private struct Route: Sendable {
        let pattern: String
        let segments: [Segment]
        var handlers: [HTTPMethod: HTTPHandler]
        /// How errors on this path are written, when its group said (else the path prefix decides).
        var errorStyle: HTTPErrorStyle?
    }

    private var routes: [Route] = []
    /// The index in `routes` of each all-literal route, by its path: most requests (the token
    /// endpoint, the challenge) name one exactly and need no segment-by-segment scan.
    private var literalRoutes: [String: Int] = [:]
    private var errorStyles: [(prefix: String, style: HTTPErrorStyle)] = []
    /// The declared body of each operation that has one: what the OpenAPI document renders.
    var requestBodies: [OperationKey: RequestBody] = [:]
    /// The declared query parameters of each operation that reads some.
    var requestQueries: [OperationKey: RequestQuery] = [:]

    /// One operation: a method on a pattern.
    struct OperationKey: Hashable, Sendable {
        let method: HTTPMethod
        let pattern: String
        init(_ method: HTTPMethod, _ pattern: String) {
            self.method = method
            self.pattern = pattern
        }
    }

    /// Creates an empty router.
    public init() {}

    /// Registers `handler` for `method` on `pattern`; a second registration of the same pair replaces
    /// the first. `errorStyle` (nil: by path prefix) is how errors on this path are written.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, errorStyle: HTTPErrorStyle? = nil, handler: @escaping HTTPHandler
    ) {
        if let index = routes.firstIndex(where: { $0.pattern == pattern }) {
            routes[index].handlers[method] = handler
            if let errorStyle { routes[index].errorStyle = errorStyle }
            return
        }
        routes.append(
            Route(pattern: pattern, segments: Self.parse(pattern), handlers: [method: handler], errorStyle: errorStyle))
        // Literal segments before parameters, position by position, so the most specific pattern wins.
        routes.sort { lhs, rhs in
            for (l, r) in zip(lhs.segments, rhs.segments) {
                switch (l, r) {
                case (.literal, .parameter): return true
                case (.parameter, .literal): return false
                default: continue
                }
            }
            return false
        }
        literalRoutes = [:]
        for (index, route) in routes.enumerated() where route.segments.allSatisfy({ $0.isLiteral }) {
            literalRoutes["/" + route.segments.map(\.text).joined(separator: "/")] = index
        }
    }

    /// Registers a `GET` handler (which also serves `HEAD`).
    public mutating func get(_ pattern: String, handler: @escaping HTTPHandler) { add(.get, pattern, handler: handler) }
    /// Registers a `POST` handler.
    public mutating func post(_ pattern: String, handler: @escaping HTTPHandler) {
        add(.post, pattern, handler: handler)
    }
    /// Registers a `PUT` handler.
    public mutating func put(_ pattern: String, handler: @escaping HTTPHandler) { add(.put, pattern, handler: handler) }
    /// Registers a `PATCH` handler.
    public mutating func patch(_ pattern: String, handler: @escaping HTTPHandler) {
        add(.patch, pattern, handler: handler)
    }
    /// Registers a `DELETE` handler.
    public mutating func delete(_ pattern: String, handler: @escaping HTTPHandler) {
        add(.delete, pattern, handler: handler)
    }

    /// Errors for paths starting with `prefix` (routing errors included) are written in `style`.
    public mutating func setErrorStyle(_ style: HTTPErrorStyle, forPathsUnder prefix: String) {
        errorStyles.append((prefix, style))
    }

    /// The error style of a request: its route's when the route's group set one, else the longest
    /// matching path prefix's, else `.oauth`.
    public func errorStyle(for method: HTTPMethod, path: String) -> HTTPErrorStyle {
        switch match(method, path: path) {
        case .handler(_, _, _, let style?), .methodNotAllowed(_, _, let style?): style
        default: errorStyle(for: path)
        }
    }

    /// The error style of a raw path by prefix: the longest matching prefix's, else `.oauth`.
    public func errorStyle(for path: String) -> HTTPErrorStyle {
        errorStyles.filter { path.hasPrefix($0.prefix) }.max { $0.prefix.count < $1.prefix.count }?.style ?? .oauth
    }

    /// The registered patterns, most specific first.
    public var patterns: [String] { routes.map(\.pattern) }

    /// Every registered (method, pattern) pair, by pattern then method: what the OpenAPI document
    /// must describe. `HEAD` and `OPTIONS` appear only when registered explicitly.
    public var routeTable: [(method: HTTPMethod, pattern: String)] {
        routes.flatMap { route in route.handlers.keys.map { (method: $0, pattern: route.pattern) } }
            .sorted { ($0.pattern, $0.method.rawValue) < ($1.pattern, $1.method.rawValue) }
    }

    /// Resolves a method and a raw (percent-encoded) path.
    public func match(_ method: HTTPMethod, path: String) -> Match {
        // An all-literal route is the most specific of any that match its path, so when it has a
        // handler for the method the scan would pick it too.
        if !path.utf8.contains(UInt8(ascii: "%")), let index = literalRoutes[path] {
            let route = routes[index]
            if let handler = route.handlers[method] ?? (method == .head ? route.handlers[.get] : nil) {
                return .handler(handler, pattern: route.pattern, parameters: [:], errorStyle: route.errorStyle)
            }
        }
        guard let segments = Self.decodedSegments(path) else { return .notFound }
        var allowed = Set<HTTPMethod>()
        var first: Route?
        for route in routes where route.segments.count == segments.count {
            guard let parameters = Self.bind(route.segments, to: segments) else { continue }
            if first == nil { first = route }
            if let handler = route.handlers[method] ?? (method == .head ? route.handlers[.get] : nil) {
                return .handler(handler, pattern: route.pattern, parameters: parameters, errorStyle: route.errorStyle)
            }
            allowed.formUnion(route.handlers.keys)
        }
        guard let pattern = first?.pattern else { return .notFound }
        if allowed.contains(.get) { allowed.insert(.head) }
        allowed.insert(.options)
        let ordered = allowed.sorted { $0.rawValue < $1.rawValue }
        return method == .options
            ? .options(pattern: pattern, allowed: ordered)
            : .methodNotAllowed(pattern: pattern, allowed: ordered, errorStyle: first?.errorStyle)
    }

    /// The pattern a request would be labelled with (nil when no route matches the path).
    public func pattern(for method: HTTPMethod, path: String) -> String? {
        switch match(method, path: path) {
        case .handler(_, let pattern, _, _), .options(let pattern, _), .methodNotAllowed(let pattern, _, _): pattern
        case .notFound: nil
        }
    }

    /// Routes the request and runs its handler, filling `context.routePattern` and `pathParameters`.
    /// Errors thrown by the handler propagate; routing failures throw `HTTPError` (404/405).
    public func respond(to request: HTTPRequest, context: inout RequestContext) throws -> HTTPResponse {
        switch match(request.method, path: request.path) {
        case .handler(let handler, let pattern, let parameters, _):
            context.routePattern = pattern
            context.pathParameters = parameters
            return try handler(request, context)
        case .options(let pattern, let allowed):
            context.routePattern = pattern
            return HTTPResponse(status: 204, headers: ["Allow": allowed.map(\.rawValue).joined(separator: ", ")])
        case .methodNotAllowed(let pattern, let allowed, _):
            context.routePattern = pattern
            throw HTTPError.methodNotAllowed(allowed: allowed)
        case .notFound:
            throw HTTPError.notFound("no route for this path")
        }
    }

    private static func parse(_ pattern: String) -> [Segment] {
        splitPath(pattern).map { segment in
            if segment.count > 2, segment.hasPrefix("{"), segment.hasSuffix("}") {
                return .parameter(String(segment.dropFirst().dropLast()))
            }
            return .literal(segment)
        }
    }

    /// `/a/b` → `["a", "b"]`; `/` → `[""]`; a trailing slash keeps an empty last segment.
    private static func splitPath(_ path: String) -> [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        return parts.first == "" ? Array(parts.dropFirst()) : parts
    }

    private static func decodedSegments(_ path: String) -> [String]? {
        guard path.hasPrefix("/") else { return nil }
        var result: [String] = []
        for raw in splitPath(path) {
            guard let decoded = PercentDecoding.decode(raw.utf8, plusAsSpace: false) else { return nil }
            result.append(decoded)
        }
        return result
    }

    private static func bind(_ pattern: [Segment], to segments: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (expected, actual) in zip(pattern, segments) {
            switch expected {
            case .literal(let literal): if literal != actual { return nil }
            case .parameter(let name):
                if actual.isEmpty { return nil }
                parameters[name] = actual
            }
        }
        return parameters
    }
}

/// The groups of routes anyone can call without an access token; each has its own per-address
/// budget, so a flood of one kind (say token requests) does not use up another (discovery).
public enum PublicRouteGroup: String, Sendable, CaseIterable {
    /// `/passkey/register` and `/passkey/challenge`: each starts a ceremony the server remembers.
    case ceremonies
    /// `/oauth/token`, `/oauth/revoke` and `/userinfo`: credentials are checked on each.
    case tokens
    /// Everything else without a token: discovery, JWKS, well-known files, the landing page, `/healthz`.
    case pages
}

/// One token-bucket limiter per `PublicRouteGroup`, each allowing the same requests per minute
/// per client address (an IPv4 address or an IPv6 /64).
public struct PublicRateLimits: Sendable {
    /// Requests per minute per client address, in each group.
    public let requestsPerMinute: Int
    private let ceremonies: RateLimiter
    private let tokens: RateLimiter
    private let pages: RateLimiter

    /// Limiters allowing `requestsPerMinute` per address in each group (`clock` as in `RateLimiter`).
    public init(requestsPerMinute: Int, clock: @escaping @Sendable () -> Double = MonotonicClock.now) {
        self.requestsPerMinute = requestsPerMinute
        ceremonies = RateLimiter(requestsPerMinute: requestsPerMinute, clock: clock)
        tokens = RateLimiter(requestsPerMinute: requestsPerMinute, clock: clock)
        pages = RateLimiter(requestsPerMinute: requestsPerMinute, clock: clock)
    }

    /// The limiter of `group`.
    public func limiter(_ group: PublicRouteGroup) -> RateLimiter {
        switch group {
        case .ceremonies: ceremonies
        case .tokens: tokens
        case .pages: pages
        }
    }
}

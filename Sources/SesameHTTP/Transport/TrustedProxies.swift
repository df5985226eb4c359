/// The proxies whose `X-Forwarded-For`, `X-Forwarded-Proto` and `X-Forwarded-Host` headers are believed.
/// Requests from any other peer are taken at face value and those headers are ignored.
public struct TrustedProxies: Sendable {
    /// The trusted address blocks.
    public let ranges: [IPAddressRange]

    /// No proxy is trusted.
    public static let none = TrustedProxies(ranges: [])

    /// Trusts the given blocks.
    public init(ranges: [IPAddressRange]) { self.ranges = ranges }

    /// Parses addresses or CIDR blocks such as `127.0.0.1`, `10.0.0.0/8`, `::1`; throws on the first invalid one.
    public init(_ entries: [String]) throws {
        var ranges: [IPAddressRange] = []
        for entry in entries {
            guard let range = IPAddressRange(entry) else { throw HTTPServerError.invalidTrustedProxy(entry) }
            ranges.append(range)
        }
        self.ranges = ranges
    }

    /// True when `address` is one of the trusted proxies.
    public func isTrusted(_ address: String) -> Bool { ranges.contains { $0.contains(address) } }

    /// What the client used, after believing trusted proxies only.
    public struct Origin: Sendable, Equatable {
        /// The client's IP address.
        public var clientIP: String
        /// `http` or `https`.
        public var scheme: String
        /// The requested host, lower-cased, without port.
        public var host: String
    }

    /// Resolves the client IP (the rightmost `X-Forwarded-For` entry that is not a trusted proxy),
    /// scheme and host of a request that arrived from `peer` over `connectionScheme`.
    public func resolve(peer: String, connectionScheme: String, headers: HTTPHeaders) -> Origin {
        var origin = Origin(
            clientIP: peer, scheme: connectionScheme, host: HTTPRequest.hostWithoutPort(headers["Host"] ?? ""))
        guard isTrusted(peer) else { return origin }
        let hops = headers.values(for: "X-Forwarded-For")
            .flatMap { $0.split(separator: ",") }
            .map { String($0).trimmingASCIIWhitespace() }
        for hop in hops.reversed() {
            guard IPAddressRange.parseAddress(hop) != nil else { break }  // garbage: stop believing the chain
            origin.clientIP = hop
            if !isTrusted(hop) { break }
        }
        if let proto = headers["X-Forwarded-Proto"]?.split(separator: ",").last
            .map({ String($0).trimmingASCIIWhitespace().lowercased() }), proto == "http" || proto == "https"
        {
            origin.scheme = proto
        }
        if let forwardedHost = headers["X-Forwarded-Host"]?.split(separator: ",").last
            .map({ String($0).trimmingASCIIWhitespace() }), HostHeader.isValid(forwardedHost)
        {
            origin.host = HTTPRequest.hostWithoutPort(forwardedHost)
        }
        return origin
    }
}

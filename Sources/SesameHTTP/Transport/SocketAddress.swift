#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A numeric IPv4 or IPv6 listen address with a port, as a `sockaddr_in`/`sockaddr_in6`.
struct SocketAddress {
    private var v4 = sockaddr_in()
    private var v6 = sockaddr_in6()
    /// True for an IPv6 address.
    let isIPv6: Bool

    /// Parses `host` (`127.0.0.1`, `::1`, `[::1]`, `0.0.0.0`, `::`); throws for anything else.
    init(host: String, port: Int) throws {
        guard (0...65535).contains(port) else { throw HTTPServerError.invalidPort(port) }
        var text = host
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if inet_pton(AF_INET, text, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port)).bigEndian
            isIPv6 = false
        } else if inet_pton(AF_INET6, text, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port)).bigEndian
            isIPv6 = true
        } else {
            throw HTTPServerError.invalidAddress(host)
        }
    }

    /// Calls `body` with a pointer to the `sockaddr`, valid only during the call.
    mutating func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>) throws -> R) rethrows -> R {
        if isIPv6 {
            return try withUnsafePointer(to: &v6) { try $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        return try withUnsafePointer(to: &v4) { try $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}

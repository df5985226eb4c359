#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address block such as `10.0.0.0/8`, `::1` or `fd00::/8`, used to name trusted proxies.
public struct IPAddressRange: Sendable, Equatable, CustomStringConvertible {
    /// The network address bytes (4 or 16).
    public let network: [UInt8]
    /// The prefix length in bits.
    public let prefixLength: Int

    /// Parses `address` or `address/prefix`; nil when it is not an IP address block.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let bytes = IPAddressRange.parseAddress(String(first)) else { return nil }
        var prefix = bytes.count * 8
        if parts.count == 2, let last = parts.last {
            guard let value = Int(last), value >= 0, value <= bytes.count * 8 else { return nil }
            prefix = value
        }
        self.network = IPAddressRange.mask(bytes, prefix: prefix)
        self.prefixLength = prefix
    }

    /// `network/prefix` in canonical text.
    public var description: String { "\(IPAddressRange.format(network) ?? "?")/\(prefixLength)" }

    /// True when `address` (text) is inside this block. IPv4-mapped IPv6 addresses match IPv4 blocks.
    public func contains(_ address: String) -> Bool {
        guard var bytes = IPAddressRange.parseAddress(address) else { return false }
        if bytes.count == 16, network.count == 4,
            bytes.prefix(12).elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255])
        {
            bytes = Array(bytes.suffix(4))
        }
        guard bytes.count == network.count else { return false }
        return IPAddressRange.mask(bytes, prefix: prefixLength) == network
    }

    /// Whether a URL's host names this machine: `localhost`, 127.0.0.0/8 or `::1` (bracketed or
    /// not). The outbound clients allow plain http only to such a host (a local fake or relay).
    public static func isLoopbackHost(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare.lowercased() == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// The key per-client limits count under: an IPv4 address (also when IPv4-mapped) as itself,
    /// an IPv6 address as its /64 (one subscriber usually holds a whole /64), anything else as given.
    public static func clientKey(_ address: String) -> String {
        guard var bytes = parseAddress(address) else { return address }
        if bytes.count == 16, bytes.prefix(12).elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255]) {
            bytes = Array(bytes.suffix(4))
        }
        if bytes.count == 4 { return format(bytes) ?? address }
        return (format(mask(bytes, prefix: 64)) ?? address) + "/64"
    }

    /// The 4 or 16 bytes of a textual IPv4/IPv6 address (brackets and a zone id are tolerated), or nil.
    static func parseAddress(_ text: String) -> [UInt8]? {
        var text = text.trimmingASCIIWhitespace()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    /// The canonical text of 4 or 16 address bytes.
    static func format(_ bytes: [UInt8]) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let ok = bytes.withUnsafeBytes { raw in
            buffer.withUnsafeMutableBufferPointer { out in
                inet_ntop(family, raw.baseAddress, out.baseAddress, socklen_t(out.count)) != nil
            }
        }
        guard ok else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func mask(_ bytes: [UInt8], prefix: Int) -> [UInt8] {
        var out = bytes
        for index in out.indices {
            let bitsHere = max(0, min(8, prefix - index * 8))
            out[index] &= bitsHere == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - bitsHere))
        }
        return out
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}

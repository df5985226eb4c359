import Foundation
import SesameStore
import Synchronization
import WebAuthn

/// The origins a tenant and a client accept in clientDataJSON.
public enum Origins {
    /// The origins of URLs seen lately: parsing with `URLComponents` cost about 4% of a login, and
    /// the same few configured URLs are parsed on every ceremony. A pure function's memo, bounded.
    private static let memo = Mutex<[String: String?]>([:])
    private static let memoCapacity = 4_096

    /// scheme://host[:port] of a URL, lowercased; nil when it has no scheme or host.
    public static func origin(of url: String) -> String? {
        if let known = memo.withLock({ $0[url] }) { return known }
        let found = parseOrigin(url)
        memo.withLock { memo in
            if memo.count >= memoCapacity { memo.removeAll(keepingCapacity: true) }
            memo[url] = .some(found)
        }
        return found
    }

    private static func parseOrigin(_ url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let defaultPort = (scheme == "https" && components.port == 443) || (scheme == "http" && components.port == 80)
        if let port = components.port, !defaultPort {
            return "\(scheme)://\(host):\(port)"
        }
        return "\(scheme)://\(host)"
    }

    /// The Android app origin for one SHA-256 signing-certificate fingerprint ("AB:CD:…").
    public static func androidOrigin(fingerprint: String) -> String? {
        guard let bytes = fingerprintBytes(fingerprint) else { return nil }
        return "android:apk-key-hash:" + Base64URL.encode(bytes)
    }

    /// The 32 bytes of a colon-separated (or plain) hex SHA-256 fingerprint; nil when malformed.
    public static func fingerprintBytes(_ fingerprint: String) -> [UInt8]? {
        let hex = fingerprint.replacingOccurrences(of: ":", with: "")
        guard hex.utf8.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            guard let h = nibble(high), let l = nibble(low) else { return nil }
            bytes.append(h << 4 | l)
        }
        return bytes
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Web origins of the tenant: its public URL, its custom domains over https, and the listed ones.
    public static func tenantOrigins(_ tenant: TenantRecord) -> Set<String> {
        var origins = Set(tenant.allowedOrigins.compactMap { origin(of: $0) })
        if let own = origin(of: tenant.publicURL) { origins.insert(own) }
        for domain in tenant.customDomains { origins.insert("https://\(domain.lowercased())") }
        return origins
    }

    /// App origins of a client: `https://<rpId>` for an iOS app (the system reports it), one
    /// `android:apk-key-hash:` origin per Android fingerprint, and its allowed web origins.
    public static func clientOrigins(_ client: ClientRecord, rpID: String) -> Set<String> {
        var origins = Set(client.allowedOrigins.compactMap { origin(of: $0) })
        if client.ios != nil { origins.insert("https://\(rpID)") }
        for fingerprint in client.android?.sha256CertFingerprints ?? [] {
            if let origin = androidOrigin(fingerprint: fingerprint) { origins.insert(origin) }
        }
        return origins
    }

    /// Where a ceremony came from, for auth events.
    static func platform(of origin: String, rpID: String) -> AuthPlatform {
        if origin.hasPrefix("android:apk-key-hash:") { return .android }
        if origin == "https://\(rpID)" { return .iosOrWeb }
        return .web
    }
}

import Foundation
import SesameService

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Apple's endpoints over HTTP (the connection's `jwks_uri` and `token_endpoint`): at most
/// `maxBytes` of answer within `timeout` seconds each; http URLs only on loopback (a local fake),
/// https anywhere.
public final class HTTPAppleEndpoints: AppleEndpoints {
    public typealias Failure = OutboundFailure
    let http: OutboundHTTP

    public init(timeout: TimeInterval = 5, maxBytes: Int = 64 * 1_024) {
        http = OutboundHTTP(timeout: timeout, maxBytes: maxBytes)
    }

    public func keys(url: String) throws -> [UInt8] {
        Array(try http.get(try Self.target(url), headers: ["Accept": "application/json"]))
    }

    public func post(url: String, form: [(String, String)]) throws -> (status: Int, body: [UInt8]) {
        var request = http.request(
            try Self.target(url),
            as: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"])
        request.httpMethod = "POST"
        request.httpBody = Data(Self.formEncoded(form).utf8)
        let (status, body) = try http.exchange(request)
        return (status, Array(body))
    }

    /// An https URL, or an http one on a loopback host.
    static func target(_ text: String) throws -> URL {
        guard let url = URL(string: text), let host = url.host?.lowercased(), let scheme = url.scheme?.lowercased()
        else { throw Failure.badURL }
        guard scheme == "https" || (scheme == "http" && IPAddressRange.isLoopbackHost(host)) else {
            throw Failure.badURL
        }
        return url
    }

    /// `application/x-www-form-urlencoded` (WHATWG URL §5.2): unreserved characters as they are,
    /// space as `+`, everything else percent-encoded.
    static func formEncoded(_ form: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        func encode(_ text: String) -> String {
            (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "").replacingOccurrences(
                of: "%20", with: "+")
        }
        return form.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }
}

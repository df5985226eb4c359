import Foundation
import SesameService

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Apple's endpoints over HTTP (the connection's `jwks_uri` and `token_endpoint`): at most
/// `maxBytes` of answer within `timeout` seconds each; http URLs only on loopback (a local fake),
/// https anywhere.
public final class HTTPAppleEndpoints: AppleEndpoints {
    public let maxBytes: Int
    let http: OutboundHTTP

    public init(timeout: TimeInterval = 5, maxBytes: Int = 64 * 1_024) {
        self.maxBytes = maxBytes
        http = OutboundHTTP(timeout: timeout)
    }

    public enum Failure: Error, Equatable {
        case badURL
        case unreachable
        case status(Int)
        case tooLarge
    }

    public func keys(url: String) throws -> [UInt8] {
        var request = http.request(try Self.target(url))
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("Sesame", forHTTPHeaderField: "User-Agent")
        guard let (status, data) = http.send(request) else { throw Failure.unreachable }
        guard status == 200 else { throw Failure.status(status) }
        guard let data, data.count <= maxBytes else { throw Failure.tooLarge }
        return Array(data)
    }

    public func post(url: String, form: [(String, String)]) throws -> (status: Int, body: [UInt8]) {
        var request = http.request(try Self.target(url))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("Sesame", forHTTPHeaderField: "User-Agent")
        request.httpBody = Data(Self.formEncoded(form).utf8)
        guard let (status, data) = http.send(request) else { throw Failure.unreachable }
        guard (data?.count ?? 0) <= maxBytes else { throw Failure.tooLarge }
        return (status, Array(data ?? Data()))
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

import Foundation
import SesameService

/// Asks an HIBP-style range endpoint over HTTP: `GET <url><prefix>` with `Add-Padding: true`, the
/// answer read as lines of `SUFFIX:COUNT` (padding lines have count 0). At most `maxBytes` of
/// answer and `timeout` seconds; anything else is an error, and the caller keeps the offline
/// corpus's verdict.
public final class HTTPRangeLookup: PasswordRangeLookup {
    public typealias Failure = OutboundFailure
    let http: OutboundHTTP

    public init(timeout: TimeInterval = 2, maxBytes: Int = 256 * 1_024) {
        http = OutboundHTTP(timeout: timeout, maxBytes: maxBytes)
    }

    /// - Throws: `OutboundFailure`; an answer over `maxBytes` is `tooLarge`.
    public func suffixes(url: String, prefix: String) throws -> [String: Int] {
        guard prefix.utf8.count == 5, let target = URL(string: url + prefix) else { throw Failure.badURL }
        let data = try http.get(target, headers: ["Add-Padding": "true"])
        guard let text = String(data: data, encoding: .utf8) else { throw Failure.malformed }
        return try Self.parse(text)
    }

    /// `SUFFIX:COUNT` lines (CRLF or LF), suffixes upper-cased.
    static func parse(_ text: String) throws -> [String: Int] {
        var out: [String: Int] = [:]
        for line in text.split(whereSeparator: \.isNewline) where !line.isEmpty {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].count == 35, parts[0].allSatisfy(\.isHexDigit),
                let count = Int(parts[1].trimmingCharacters(in: .whitespaces)), count >= 0
            else { throw Failure.malformed }
            out[parts[0].uppercased()] = count
        }
        return out
    }
}

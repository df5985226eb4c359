import Foundation
import SesameService
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Asks an HIBP-style range endpoint over HTTP: `GET <url><prefix>` with `Add-Padding: true`, the
/// answer read as lines of `SUFFIX:COUNT` (padding lines have count 0). At most `maxBytes` of
/// answer and `timeout` seconds; anything else is an error, and the caller keeps the offline
/// corpus's verdict.
public final class HTTPRangeLookup: PasswordRangeLookup {
    public let timeout: TimeInterval
    public let maxBytes: Int
    let session: URLSession

    public init(timeout: TimeInterval = 2, maxBytes: Int = 256 * 1_024) {
        self.timeout = timeout
        self.maxBytes = maxBytes
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    public enum Failure: Error, Equatable {
        case badURL
        case unreachable
        case status(Int)
        case malformed
    }

    public func suffixes(url: String, prefix: String) throws -> [String: Int] {
        guard prefix.utf8.count == 5, let target = URL(string: url + prefix) else { throw Failure.badURL }
        var request = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("true", forHTTPHeaderField: "Add-Padding")
        request.setValue("Sesame", forHTTPHeaderField: "User-Agent")
        let result = Mutex<(Data?, Int?)>((nil, nil))
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, _ in
            result.withLock { $0 = (data, (response as? HTTPURLResponse)?.statusCode) }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout + 1) == .timedOut {
            task.cancel()
            throw Failure.unreachable
        }
        let (data, status) = result.withLock { $0 }
        guard let status else { throw Failure.unreachable }
        guard status == 200 else { throw Failure.status(status) }
        guard let data, data.count <= maxBytes, let text = String(data: data, encoding: .utf8) else {
            throw Failure.malformed
        }
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

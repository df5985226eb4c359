import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Outbound HTTP from a request's worker thread (the message webhook, a breached-password range
/// endpoint, the audit-log webhook): an ephemeral URLSession with no cookies or cache, each call
/// bounded by `timeout`.
struct OutboundHTTP: Sendable {
    let timeout: TimeInterval
    /// The most of an answer's body that `get` and `exchange` take.
    let maxBytes: Int
    private let session: URLSession

    /// - Parameter followsRedirects: false answers a 3xx as it is, so a request's credentials
    ///   never go to the place a redirect names (the audit-log webhook's bearer token).
    init(timeout: TimeInterval, maxBytes: Int = .max, followsRedirects: Bool = true) {
        self.timeout = timeout
        self.maxBytes = maxBytes
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        session = URLSession(
            configuration: configuration, delegate: followsRedirects ? nil : NoRedirects(), delegateQueue: nil)
    }

    /// Refuses every redirect: the task completes with the 3xx answer itself.
    private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    /// A request for `url` with this client's timeout.
    func request(_ url: URL) -> URLRequest {
        URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
    }

    /// The status and body of the answer; nil when none came in time (or the network failed).
    func send(_ request: URLRequest) -> (status: Int, body: Data?)? {
        let result = Mutex<(Int, Data?)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            if error == nil, let status = (response as? HTTPURLResponse)?.statusCode {
                result.withLock { $0 = (status, data) }
            }
            done.signal()
        }
        task.resume()
        // The session's own timeout ends the task; this bound holds if it does not.
        if done.wait(timeout: .now() + timeout + 1) == .timedOut {
            task.cancel()
            return nil
        }
        return result.withLock { $0 }
    }
}

/// Why an outbound call to a server Sesame reads (Apple's endpoints, a breached-password range
/// endpoint) gave no answer to use.
public enum OutboundFailure: Error, Equatable {
    case badURL
    case unreachable
    case status(Int)
    case tooLarge
    case malformed
}

extension OutboundHTTP {
    /// A request for `url` as Sesame (its `User-Agent`) with `headers`.
    func request(_ url: URL, as headers: [String: String]) -> URLRequest {
        var request = request(url)
        request.setValue("Sesame", forHTTPHeaderField: "User-Agent")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// The status and the body of the answer to `request`, the body at most `maxBytes`.
    func exchange(_ request: URLRequest) throws(OutboundFailure) -> (status: Int, body: Data) {
        guard let (status, data) = send(request) else { throw .unreachable }
        guard (data?.count ?? 0) <= maxBytes else { throw .tooLarge }
        return (status, data ?? Data())
    }

    /// A GET of `url` as Sesame with `headers`: the body of a 200 answer, at most `maxBytes`.
    func get(_ url: URL, headers: [String: String]) throws(OutboundFailure) -> Data {
        guard let (status, data) = send(request(url, as: headers)) else { throw .unreachable }
        guard status == 200 else { throw .status(status) }
        guard let data, data.count <= maxBytes else { throw .tooLarge }
        return data
    }
}

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
    private let session: URLSession

    /// - Parameter followsRedirects: false answers a 3xx as it is, so a request's credentials
    ///   never go to the place a redirect names (the audit-log webhook's bearer token).
    init(timeout: TimeInterval, followsRedirects: Bool = true) {
        self.timeout = timeout
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

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one HTTP request and returns the body and response, whatever the status. Apps and tests
/// inject their own (a stub, a pinned session, a proxy); `URLSessionTransport` is the default.
/// Throw `URLError` (or an `AuthenticationError`) for failures below HTTP.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the body and the HTTP response for any status.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// The default transport over `URLSession`. Every request carries the configuration's timeout
/// (`URLRequest.timeoutInterval`).
public struct URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession

    /// A transport over `session` (the shared session by default).
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Sends the request; a non-HTTP response throws `URLError(.badServerResponse)`.
    ///
    /// URLSession enforces `request.timeoutInterval`; as a backstop, a request still unanswered two
    /// seconds after it fails with `URLError(.timedOut)` and is cancelled, so a completion that
    /// never arrives (seen with FoundationNetworking under heavy load) cannot hang the caller.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let session = self.session
        let (data, response) = try await Deadline.run(seconds: request.timeoutInterval + 2) {
            try await session.data(for: request)
        }
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

/// Runs an operation with a hard deadline without waiting for a stuck operation to notice its
/// cancellation: whichever of the result and the deadline comes first resumes the caller.
enum Deadline {
    /// Waits `seconds` of real time (the default timer).
    static let realTime: @Sendable (TimeInterval) async -> Void = { seconds in
        try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }

    /// `operation`'s result, or `URLError(.timedOut)` once `timer(seconds)` returns first (tests
    /// pass a timer they fire themselves).
    static func run<T: Sendable>(
        seconds: TimeInterval, timer: @escaping @Sendable (TimeInterval) async -> Void = Deadline.realTime,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let gate = ResumeOnce<T>()
        return try await withCheckedThrowingContinuation { continuation in
            gate.set(continuation)
            let work = Task {
                do {
                    gate.resume(with: .success(try await operation()))
                } catch {
                    gate.resume(with: .failure(error))
                }
            }
            Task {
                await timer(seconds)
                if gate.resume(with: .failure(URLError(.timedOut))) { work.cancel() }
            }
        }
    }
}

/// Resumes a continuation exactly once, from whichever side gets there first.
final class ResumeOnce<T: Sendable>: @unchecked Sendable {  // all state behind `lock`
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?
    private var pending: Result<T, any Error>?
    private var done = false

    func set(_ continuation: CheckedContinuation<T, any Error>) {
        lock.lock()
        if let pending {
            done = true
            lock.unlock()
            continuation.resume(with: pending)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    /// Returns true when this call was the one that resumed (or will resume) the caller.
    @discardableResult
    func resume(with result: Result<T, any Error>) -> Bool {
        lock.lock()
        guard !done, pending == nil else {
            lock.unlock()
            return false
        }
        guard let continuation else {
            pending = result
            lock.unlock()
            return true
        }
        done = true
        self.continuation = nil
        lock.unlock()
        continuation.resume(with: result)
        return true
    }
}

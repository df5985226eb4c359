import Synchronization
import Testing

@testable import SesameHTTP

/// A clock the test moves by hand.
final class FakeClock: Sendable {
    private let seconds = Mutex<Double>(1000)
    func now() -> Double { seconds.withLock { $0 } }
    func advance(_ delta: Double) { seconds.withLock { $0 += delta } }
}

@Suite("RateLimiter")
struct RateLimiterTests {
    @Test func allowsTheBurstThenAsksToWait() {
        let clock = FakeClock()
        let limiter = RateLimiter(requestsPerMinute: 3, clock: { clock.now() })
        #expect(limiter.acquire("a") == nil)
        #expect(limiter.acquire("a") == nil)
        #expect(limiter.acquire("a") == nil)
        #expect(limiter.acquire("a") == 20)  // one token per 20 s
        #expect(limiter.acquire("b") == nil)  // other keys are independent
        clock.advance(10)
        #expect(limiter.acquire("a") == 10)
        clock.advance(10)
        #expect(limiter.acquire("a") == nil)
        #expect(limiter.acquire("a") == 20)
    }

    @Test func checkThrows429WithRetryAfter() {
        let clock = FakeClock()
        let limiter = RateLimiter(requestsPerMinute: 1, clock: { clock.now() })
        #expect(throws: Never.self) { try limiter.check("ip") }
        #expect(throws: HTTPError.tooManyRequests(retryAfterSeconds: 60)) { try limiter.check("ip") }
        let response = HTTPError.tooManyRequests(retryAfterSeconds: 60).response
        #expect(response.status == 429)
        #expect(response.headers["Retry-After"] == "60")
        #expect(String(decoding: response.body, as: UTF8.self).contains(#""error":"too_many_requests""#))
    }

    @Test func zeroMeansOff() {
        let limiter = RateLimiter(requestsPerMinute: 0, clock: { 0 })
        for _ in 0..<1000 { #expect(limiter.acquire("x") == nil) }
        #expect(limiter.trackedKeys == 0)
    }

    @Test func memoryIsBounded() {
        let clock = FakeClock()
        let limiter = RateLimiter(requestsPerMinute: 10, maxKeys: 100, clock: { clock.now() })
        for index in 0..<1000 {
            _ = limiter.acquire("k\(index)")
            clock.advance(0.001)
        }
        #expect(limiter.trackedKeys <= 100)
        // Keys idle long enough to have refilled are dropped first.
        clock.advance(120)
        _ = limiter.acquire("fresh")
        #expect(limiter.trackedKeys == 1)
    }
}

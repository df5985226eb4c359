import Synchronization

/// A per-key token bucket (key: usually the client IP): `requestsPerMinute` sustained, bursts up to
/// the same number. Thread-safe; memory is bounded by `maxKeys` (idle keys are evicted first,
/// then the least recently seen). Over the limit, `check` throws 429 `too_many_requests` with `Retry-After`.
public final class RateLimiter: Sendable {
    /// Requests allowed per minute and per key; 0 turns the limiter off.
    public let requestsPerMinute: Int
    /// The most keys remembered at once.
    public let maxKeys: Int

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private let clock: @Sendable () -> Double
    private let buckets = Mutex<[String: Bucket]>([:])

    /// Creates a limiter. `clock` returns seconds on a monotonic clock; tests inject a fake one.
    public init(
        requestsPerMinute: Int, maxKeys: Int = 100_000, clock: @escaping @Sendable () -> Double = MonotonicClock.now
    ) {
        self.requestsPerMinute = max(0, requestsPerMinute)
        self.maxKeys = max(1, maxKeys)
        self.clock = clock
    }

    /// The number of keys currently remembered.
    public var trackedKeys: Int { buckets.withLock { $0.count } }

    /// Spends one token for `key`, or throws `HTTPError.tooManyRequests` when none is left.
    public func check(_ key: String) throws {
        if let wait = acquire(key) { throw HTTPError.tooManyRequests(retryAfterSeconds: wait) }
    }

    /// Spends one token for `key`; nil when allowed, else the whole seconds to wait before the next token.
    public func acquire(_ key: String) -> Int? {
        guard requestsPerMinute > 0 else { return nil }
        let capacity = Double(requestsPerMinute)
        let rate = capacity / 60  // tokens per second
        let now = clock()
        let maxKeys = self.maxKeys
        return buckets.withLock { buckets -> Int? in
            var bucket: Bucket
            if let existing = buckets[key] {
                bucket = existing
                let elapsed = max(0, now - bucket.updated)
                bucket.tokens = min(capacity, bucket.tokens + elapsed * rate)
            } else {
                if buckets.count >= maxKeys {
                    Self.evict(&buckets, now: now, capacity: capacity, rate: rate, maxKeys: maxKeys)
                }
                bucket = Bucket(tokens: capacity, updated: now)
            }
            bucket.updated = now
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                buckets[key] = bucket
                return nil
            }
            buckets[key] = bucket
            return Int(((1 - bucket.tokens) / rate).rounded(.up))
        }
    }

    /// Drops keys whose bucket has refilled (they behave like unknown keys); if that frees nothing,
    /// the least recently seen tenth, so a flood of new keys costs amortised O(log n) per key.
    private static func evict(
        _ buckets: inout [String: Bucket], now: Double, capacity: Double, rate: Double, maxKeys: Int
    ) {
        let refillTime = capacity / rate
        buckets = buckets.filter { now - $0.value.updated < refillTime }
        guard buckets.count >= maxKeys else { return }
        let oldest = buckets.sorted { $0.value.updated < $1.value.updated }.prefix(max(1, maxKeys / 10))
        for entry in oldest { buckets.removeValue(forKey: entry.key) }
    }
}

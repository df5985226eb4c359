import Foundation
import SesameBenchFloor

#if canImport(Glibc)
    import Glibc
#endif

/// The raw libcrypto floor of one login, measured in this process: one ES256 verify with a key
/// already imported (the assertion) and two ES256 signatures (access token and id token), through
/// SesameCrypto, which adds no measurable cost over EVP_DigestSign/EVP_DigestVerify.
struct CryptoBaseline {
    /// Microseconds per ES256 verify.
    var verifyMicroseconds: Double
    /// Microseconds per ES256 signature of a JWT-sized message.
    var signMicroseconds: Double

    /// One verify + two signatures: the floor of a passkey login with ES256 tokens.
    var loginMicroseconds: Double { verifyMicroseconds + 2 * signMicroseconds }
    /// Two signatures: the floor of a refresh grant that returns an access and an id token.
    var refreshMicroseconds: Double { 2 * signMicroseconds }

    /// Measures both, each as the median of `rounds` timed rounds of about `seconds`.
    static func measure(rounds: Int = 5, seconds: Double = 0.25) throws -> CryptoBaseline {
        let work = try FloorWork()
        var failures = 0
        let verify = try median(rounds: rounds, seconds: seconds) {
            if try !work.verify() { failures += 1 }
        }
        guard failures == 0 else { throw LoadError("the baseline verify failed") }
        let sign = try median(rounds: rounds, seconds: seconds) { try work.sign() }
        return CryptoBaseline(verifyMicroseconds: verify, signMicroseconds: sign)
    }

    /// Median microseconds per call over `rounds` rounds of about `seconds` each.
    private static func median(rounds: Int, seconds: Double, _ body: () throws -> Void) throws -> Double {
        for _ in 0..<50 { try body() }  // warm up
        var perCall: [Double] = []
        for _ in 0..<rounds {
            var calls = 0
            let start = Clock.nanoseconds()
            let budget = UInt64(seconds * 1e9)
            var elapsed: UInt64 = 0
            repeat {
                for _ in 0..<20 { try body() }
                calls += 20
                elapsed = Clock.nanoseconds() - start
            } while elapsed < budget
            perCall.append(Double(elapsed) / 1e3 / Double(calls))
        }
        perCall.sort()
        return perCall[perCall.count / 2]
    }
}

/// Pins the calling thread to cores with sched_setaffinity (found through dlsym: Glibc's Swift
/// module hides the GNU scheduling calls).
enum CPUAffinity {
    private typealias Call = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
    private static let maskBytes = 128  // sizeof(cpu_set_t)

    private static func function(_ name: String) -> Call? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: Call.self)
    }

    /// Pins the calling thread to `cores`; returns false if that was refused.
    @discardableResult
    static func pinCurrentThread(to cores: [Int]) -> Bool {
        guard let set = function("sched_setaffinity") else { return false }
        var mask = [UInt8](repeating: 0, count: maskBytes)
        for core in cores where core >= 0 && core < maskBytes * 8 { mask[core / 8] |= UInt8(1 << (core % 8)) }
        return mask.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return false }
            return set(0, maskBytes, base) == 0
        }
    }

    /// The cores the calling thread may run on now.
    static func currentCores() -> [Int] {
        guard let get = function("sched_getaffinity") else { return [] }
        var mask = [UInt8](repeating: 0, count: maskBytes)
        let result = mask.withUnsafeMutableBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return get(0, maskBytes, base)
        }
        guard result >= 0 else { return [] }
        return (0..<(maskBytes * 8)).filter { mask[$0 / 8] & UInt8(1 << ($0 % 8)) != 0 }
    }
}

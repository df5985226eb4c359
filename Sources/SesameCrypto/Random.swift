internal import COpenSSL
import Foundation
import Synchronization

/// A source of random bytes. Production uses `SystemRandom`; tests inject their own.
public protocol RandomSource: Sendable {
    /// Exactly `count` random bytes, or a thrown error; never fewer.
    func bytes(count: Int) throws -> [UInt8]
}

/// libcrypto's CSPRNG (RAND_bytes).
public struct SystemRandom: RandomSource {
    /// The process-wide CSPRNG; it has no state of its own.
    public init() {}

    /// `count` bytes from RAND_bytes; throws `invalidInput` for a negative or oversized count and
    /// `library` if the generator fails. Small draws (ids, challenges, tokens) come from
    /// `RandomPool`, larger ones straight from RAND_bytes.
    public func bytes(count: Int) throws -> [UInt8] {
        guard count >= 0, let count32 = Int32(exactly: count) else {
            throw CryptoError.invalidInput("cannot draw \(count) random bytes")
        }
        if count == 0 { return [] }
        if count <= RandomPool.largestDraw { return try RandomPool.shared.draw(count) }
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, count32) }
        guard ok == 1 else { throw OpenSSLError.library("RAND_bytes") }
        return out
    }
}

/// RAND_bytes output drawn ahead in one call, for the many small draws a request makes (a login
/// takes six or so: challenge, session handle, token ids, event id). Each RAND_bytes call has a
/// fixed cost (a DRBG generate and reseed check, a `getpid` for fork detection) that dwarfs 32
/// bytes of output. Every byte is handed out once and zeroed in the pool as it is taken.
///
/// Sesame starts other programs only with fork-and-exec, so no child ever shares the pool.
final class RandomPool: Sendable {
    static let shared = RandomPool()
    /// The largest draw the pool serves.
    static let largestDraw = 64
    static let size = 1_024

    private struct State {
        var buffer = [UInt8](repeating: 0, count: RandomPool.size)
        /// Bytes before this index have been handed out (and zeroed).
        var position = RandomPool.size
    }
    private let state = Mutex(State())

    func draw(_ count: Int) throws -> [UInt8] {
        precondition(count > 0 && count <= Self.largestDraw)
        return try state.withLock { state in
            if state.position + count > Self.size {
                let ok = state.buffer.withUnsafeMutableBufferPointer {
                    RAND_bytes($0.baseAddress, Int32(Self.size))
                }
                guard ok == 1 else { throw OpenSSLError.library("RAND_bytes") }
                state.position = 0
            }
            let start = state.position
            state.position += count
            return state.buffer.withUnsafeMutableBufferPointer { buffer in
                let out = Array(buffer[start..<start + count])
                for index in start..<start + count { buffer[index] = 0 }
                return out
            }
        }
    }
}

/// A reproducible byte stream for tests: SHA-256(seed ‖ counter) blocks, counter big-endian 64-bit.
///
/// NOT FOR PRODUCTION. Anyone who knows the seed knows every byte; use it only to make tests and
/// seeded property runs repeatable. Two instances with the same seed yield the same stream, and the
/// stream does not depend on how it is split into calls (`bytes(3)` then `bytes(5)` equals `bytes(8)`).
public final class DeterministicRandom: RandomSource, @unchecked Sendable {
    private let seed: [UInt8]
    private let lock = NSLock()
    // Guarded by `lock`.
    private var counter: UInt64 = 0
    private var pending: [UInt8] = []

    /// A stream determined entirely by `seed`.
    public init(seed: [UInt8]) {
        self.seed = seed
    }

    /// A stream determined by a 64-bit seed (its big-endian bytes).
    public convenience init(seed: UInt64) {
        self.init(seed: withUnsafeBytes(of: seed.bigEndian) { Array($0) })
    }

    /// The next `count` bytes of the stream.
    public func bytes(count: Int) throws -> [UInt8] {
        guard count >= 0, count <= 1 << 30 else {
            throw CryptoError.invalidInput("cannot draw \(count) random bytes")
        }
        lock.lock()
        defer { lock.unlock() }
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            if pending.isEmpty {
                let block = Digest.sha256(seed + withUnsafeBytes(of: counter.bigEndian) { Array($0) })
                guard block.count == HashAlgorithm.sha256.outputSize else {
                    throw CryptoError.library("SHA-256 failed")
                }
                pending = block
                counter &+= 1
            }
            let take = min(count - out.count, pending.count)
            out.append(contentsOf: pending.prefix(take))
            pending.removeFirst(take)
        }
        return out
    }
}

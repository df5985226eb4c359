import Testing

@testable import SesameCrypto

@Suite("Random sources")
struct RandomTests {
    @Test("SystemRandom returns the requested count and rejects a negative one")
    func systemRandom() throws {
        let random = SystemRandom()
        #expect(try random.bytes(count: 0) == [])
        let a = try random.bytes(count: 32)
        let b = try random.bytes(count: 32)
        #expect(a.count == 32)
        #expect(a != b)
        #expect(throws: CryptoError.invalidInput("cannot draw -1 random bytes")) { try random.bytes(count: -1) }
    }

    @Test("DeterministicRandom is reproducible, seed-dependent and independent of call splitting")
    func deterministic() throws {
        let first = try DeterministicRandom(seed: 42).bytes(count: 80)
        let second = try DeterministicRandom(seed: 42).bytes(count: 80)
        #expect(first == second)
        #expect(try DeterministicRandom(seed: 43).bytes(count: 80) != first)
        let split = DeterministicRandom(seed: 42)
        let pieces = try split.bytes(count: 3) + split.bytes(count: 40) + split.bytes(count: 37)
        #expect(pieces == first)
        // The first block is SHA-256(seed ‖ counter 0).
        let seed: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 42]
        #expect(Array(first.prefix(32)) == Digest.sha256(seed + [0, 0, 0, 0, 0, 0, 0, 0]))
    }
}

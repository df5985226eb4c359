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

    @Test("SystemRandom's pooled small draws never repeat, across many refills and from many threads")
    func pooledDrawsNeverRepeat() async throws {
        // 64 tasks × 200 draws of 16 bytes is 200 KB: the 1 KB pool refills about 200 times.
        let draws = try await withThrowingTaskGroup(of: [[UInt8]].self) { group in
            for _ in 0..<64 {
                group.addTask { try (0..<200).map { _ in try SystemRandom().bytes(count: 16) } }
            }
            return try await group.reduce(into: [[UInt8]]()) { $0 += $1 }
        }
        #expect(draws.count == 64 * 200)
        #expect(Set(draws).count == draws.count)
        #expect(draws.allSatisfy { $0.count == 16 && $0 != [UInt8](repeating: 0, count: 16) })
        // The largest pooled draw, one past it (straight from RAND_bytes), and a large one.
        for count in [64, 65, 4_096] {
            let bytes = try SystemRandom().bytes(count: count)
            #expect(bytes.count == count)
            #expect(Set(bytes).count > 1)
        }
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

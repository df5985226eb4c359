import Foundation
import SesameCrypto
import WebAuthn
import Testing

@testable import SesameService

/// Client ids are pasted into command lines, so none may start like an option.
@Suite struct IdentifierTests {
    /// Hands out the queued draws in order, then zeros.
    final class QueuedRandom: RandomSource, @unchecked Sendable {
        private var draws: [[UInt8]]
        private let lock = NSLock()
        init(_ draws: [[UInt8]]) { self.draws = draws }
        func bytes(count: Int) throws -> [UInt8] {
            lock.withLock { draws.isEmpty ? [UInt8](repeating: 0, count: count) : draws.removeFirst() }
        }
    }

    @Test func aClientIDNeverStartsWithAHyphenOrAnUnderscore() throws {
        // 0xFB… encodes as "-…" and 0xFF… as "__…"; the third draw ("AAAA…") is the id.
        let random = QueuedRandom([
            [0xFB] + [UInt8](repeating: 1, count: 23), [0xFF] + [UInt8](repeating: 1, count: 23),
        ])
        #expect(Base64URL.encode([0xFB] + [UInt8](repeating: 1, count: 23)).hasPrefix("-"))
        let id = try Identifiers.clientID(random)
        #expect(id == String(repeating: "A", count: 32))
    }

    @Test func aSourceThatNeverGivesOneIsAnError() {
        let random = QueuedRandom(Array(repeating: [0xFB] + [UInt8](repeating: 0, count: 23), count: 100))
        #expect(throws: ServiceError.self) { try Identifiers.clientID(random) }
    }
}

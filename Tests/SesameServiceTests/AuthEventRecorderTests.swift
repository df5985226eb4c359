import Foundation
import SesameCrypto
import SesameStore
import Testing

@testable import SesameService

@Suite("Auth event ids")
struct AuthEventRecorderTests {
    @Test func idsAreTimeOrderedAndUnique() throws {
        let at = Date(timeIntervalSince1970: 1_800_000_000.5)
        let id = AuthEventRecorder.eventID(at: at, suffix: [0xAB, 0, 1, 2, 3, 0xFF])
        #expect(id == "evt_01a3185c51f4" + "ab00010203ff")
        #expect(id.count == 4 + 24)
        // Later events sort after earlier ones, whatever their random part.
        let earlier = AuthEventRecorder.eventID(at: at, suffix: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        let later = AuthEventRecorder.eventID(at: at.addingTimeInterval(0.001), suffix: [0, 0, 0, 0, 0, 0])
        #expect(earlier < later)
        // Out-of-range times are clamped, never a trap.
        #expect(AuthEventRecorder.eventID(at: .distantPast, suffix: [1]) == "evt_00000000000001")
        #expect(AuthEventRecorder.eventID(at: Date(timeIntervalSince1970: 1e16), suffix: [1]) == "evt_ffffffffffff01")
        #expect(AuthEventRecorder.eventID(at: Date(timeIntervalSince1970: .nan), suffix: [1]) == "evt_00000000000001")
    }

    @Test func recordedEventsGetDistinctIds() throws {
        let store = InMemoryStore()
        let recorder = AuthEventRecorder(store: store, batchSize: 10_000)
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        for _ in 0..<500 {
            recorder.record(
                tenantID: "t1", type: .login, method: .passkey, outcome: .success, at: at, clientID: nil, userID: nil)
        }
        recorder.flush()
        let events = try store.read { try $0.authEvents.since(tenantID: "t1", since: at, limit: 1_000) }
        #expect(events.count == 500)
        #expect(Set(events.map(\.id)).count == 500)
        #expect(events.allSatisfy { $0.id.hasPrefix("evt_" + "01a3185c5000") })
    }
}

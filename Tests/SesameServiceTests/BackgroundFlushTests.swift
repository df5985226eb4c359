import Foundation
import SesameCrypto
import SesameStore
import Synchronization
import Testing

@testable import SesameService

/// A store that counts write transactions, can hold each write until released, and can fail
/// the n-th write.
private final class GatedStore: SesameStore, Sendable {
    let inner = InMemoryStore()
    private let state = Mutex<(writes: Int, failAt: Int?)>((0, nil))
    /// While set, every write waits for `release` (signalled once per write).
    let gate = Atomic<Bool>(false)
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)

    var writes: Int { state.withLock { $0.writes } }
    func failWrite(number: Int) { state.withLock { $0.failAt = number } }

    func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T { try inner.read(body) }

    func write<T>(_ durability: Durability, _ body: (any StoreTransaction) throws -> T) throws -> T {
        let number = state.withLock { state -> Int in
            state.writes += 1
            return state.writes
        }
        if gate.load(ordering: .acquiring) {
            entered.signal()
            release.wait()
        }
        if state.withLock({ $0.failAt }) == number { throw StoreError.unavailable("write \(number) fails") }
        return try inner.write(durability, body)
    }
}

@Suite("Batched records: background flush and chunked writes", .timeLimit(.minutes(1)))
struct BackgroundFlushTests {
    private static let at = Date(timeIntervalSince1970: 1_800_000_000)

    private static func record(_ recorder: AuthEventRecorder, count: Int) {
        for _ in 0..<count {
            recorder.record(
                tenantID: "t1", type: .login, method: .passkey, outcome: .success, at: at, clientID: nil, userID: nil)
        }
    }

    private static func stored(_ store: GatedStore) throws -> Int {
        try store.read { try $0.authEvents.since(tenantID: "t1", since: at, limit: 10_000) }.count
    }

    @Test func aFullBatchIsWrittenOffTheRecordingThread() throws {
        let store = GatedStore()
        let background = BackgroundFlush(label: "test.flush")
        let recorder = AuthEventRecorder(store: store, batchSize: 8, background: background)
        store.gate.store(true, ordering: .releasing)
        // The eighth event fills the batch. `record` returns while the flush it asked for is
        // still held inside the store's write: the recording thread did not write.
        Self.record(recorder, count: 8)
        store.entered.wait()
        #expect(try Self.stored(store) == 0)
        // More events while that flush runs join the buffer; asking again queues one more flush.
        Self.record(recorder, count: 8)
        store.gate.store(false, ordering: .releasing)
        store.release.signal()
        background.drain()
        #expect(try Self.stored(store) == 16)
        #expect(recorder.pendingCount == 0)
    }

    @Test func byDefaultEachFullBufferIsOneTransactionWrittenAsItFills() throws {
        let store = GatedStore()
        let background = BackgroundFlush(label: "test.flush.default")
        let recorder = AuthEventRecorder(store: store, background: background)
        let audit = AuditLog(store: store, clock: ManualClock(Self.at), background: background)
        // One short of a chunk: nothing is written yet.
        Self.record(recorder, count: FlushChunks.size - 1)
        for _ in 0..<(FlushChunks.size - 1) { audit.record(.successAPIOperation, tenantID: "t1") }
        background.drain()
        #expect(store.writes == 0)
        // The chunk's last record asks for a flush, which writes the buffer in one transaction;
        // two more buffers are two more transactions, not one long burst at the end.
        Self.record(recorder, count: 1)
        background.drain()
        #expect(store.writes == 1)
        #expect(try Self.stored(store) == FlushChunks.size)
        for _ in 0..<2 {
            Self.record(recorder, count: FlushChunks.size)
            background.drain()
        }
        #expect(store.writes == 3)
        #expect(try Self.stored(store) == FlushChunks.size * 3)
        // The audit log's buffer fills at the same size (its due prune has no tenant to write for).
        audit.record(.successAPIOperation, tenantID: "t1")
        background.drain()
        #expect(store.writes == 4)
        #expect(audit.pendingCount == 0)
    }

    @Test func withoutABackgroundTheFullBatchIsWrittenInline() throws {
        let store = GatedStore()
        let recorder = AuthEventRecorder(store: store, batchSize: 8)
        Self.record(recorder, count: 8)
        #expect(try Self.stored(store) == 8)
    }

    @Test func aBackgroundFourBatchesBehindMakesTheRecorderFlushItself() throws {
        let store = GatedStore()
        // A queue that never runs stands for a background flush that cannot keep up.
        let queue = DispatchQueue(label: "test.flush.stuck")
        queue.suspend()
        let background = BackgroundFlush(queue: queue)
        let recorder = AuthEventRecorder(store: store, batchSize: 8, background: background)
        Self.record(recorder, count: 31)
        #expect(recorder.pendingCount == 31)
        #expect(store.writes == 0)
        // The 32nd waiting event (four batches) is written by the recording thread itself, so
        // memory stays bounded.
        Self.record(recorder, count: 1)
        #expect(recorder.pendingCount == 0)
        #expect(try Self.stored(store) == 32)
        // The flush that was queued finds nothing left.
        queue.resume()
        background.drain()
        #expect(store.writes == 1)
    }

    @Test func aFlushWritesInChunksAndKeepsWhatAFailedChunkDidNotWrite() throws {
        let store = GatedStore()
        let recorder = AuthEventRecorder(store: store, batchSize: 10_000)
        Self.record(recorder, count: FlushChunks.size * 3 + 5)
        store.failWrite(number: 3)
        recorder.flush()
        // Two chunks committed; the third failed, so it and the one after it wait.
        #expect(store.writes == 3)
        #expect(try Self.stored(store) == FlushChunks.size * 2)
        #expect(recorder.pendingCount == FlushChunks.size + 5)
        recorder.flush()
        #expect(store.writes == 5)
        #expect(try Self.stored(store) == FlushChunks.size * 3 + 5)
        #expect(recorder.pendingCount == 0)
    }

    @Test func aFailedFlushKeepsABoundedNumberOfEvents() throws {
        let store = GatedStore()
        let recorder = AuthEventRecorder(store: store, batchSize: 10_000)
        Self.record(recorder, count: AuthEventRecorder.maxKeptAfterFailure + 10)
        store.failWrite(number: 1)
        recorder.flush()
        // The newest are kept for the next flush; the ten oldest are dropped.
        #expect(recorder.pendingCount == AuthEventRecorder.maxKeptAfterFailure)
        recorder.flush()
        #expect(try Self.stored(store) == AuthEventRecorder.maxKeptAfterFailure)
    }

    @Test func theAuditLogFlushesInChunksToo() throws {
        let store = GatedStore()
        let audit = AuditLog(store: store, clock: ManualClock(Self.at), batchSize: 10_000)
        for _ in 0..<(FlushChunks.size * 2 + 1) { audit.record(.successAPIOperation, tenantID: "t1") }
        audit.flush()
        // Three chunks (the prune that follows has no tenant to prune, so it writes nothing).
        #expect(store.writes == 3)
        #expect(audit.pendingCount == 0)
        #expect(
            try store.read { try $0.auditEvents.count(tenantID: "t1", query: AuditQuery()) } == FlushChunks.size * 2 + 1
        )
    }

    @Test func aRequestThatFlushesTheAuditLogInlineDoesNotAlsoPrune() throws {
        let store = GatedStore()
        let clock = ManualClock(Self.at)
        try store.inner.write(.durable) {
            try $0.tenants.insert(
                TenantRecord(
                    id: "t1", name: "t1.test", domain: "t1.test", rpID: "t1.test", publicURL: "https://t1.test",
                    defaultConnectionID: "c1", createdAt: Self.at, updatedAt: Self.at))
        }
        func count() throws -> Int {
            try store.read { try $0.auditEvents.count(tenantID: "t1", query: AuditQuery()) }
        }
        let audit = AuditLog(store: store, clock: clock, batchSize: 4)
        for _ in 0..<4 { audit.record(.successAPIOperation, tenantID: "t1") }
        #expect(try count() == 4)
        // Past the retention, a full buffer is written by the recording thread, and the prune
        // that is due waits for a real flush.
        clock.advance(by: 400 * 86_400)
        for _ in 0..<4 { audit.record(.successAPIOperation, tenantID: "t1") }
        #expect(try count() == 8)
        audit.flush()
        #expect(try count() == 4)
    }

    @Test func lastUsedTimesAreWrittenInChunks() throws {
        let store = GatedStore()
        let recorder = UsageRecorder(store: store, batchSize: 10_000)
        // 40 passkeys and 40 users: 80 touches, three chunks (the records do not exist, so each
        // touch is skipped; the transactions still run).
        for index in 0..<40 {
            recorder.recordLogin(tenantID: "t1", passkeyID: "p\(index)", userID: "u\(index)", at: Self.at)
        }
        recorder.flush()
        #expect(store.writes == 3)
        #expect(recorder.pendingCount == 0)
    }

    @Test func chunksCoverEveryRecordInOrder() {
        #expect(FlushChunks.split([Int](), size: 4).isEmpty)
        #expect(FlushChunks.split(Array(0..<10), size: 4).map(Array.init) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]])
        #expect(FlushChunks.split(Array(0..<3), size: 0).map(Array.init) == [[0], [1], [2]])
    }
}

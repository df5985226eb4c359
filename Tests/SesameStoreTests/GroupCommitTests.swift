import Dispatch
import Foundation
import SesameSQL
import SesameStore
import Synchronization
import Testing

@testable import SesameSQLite

/// Group commit on the SQLite store: writes that arrive while one runs share its commit, and each
/// still succeeds, fails and reads exactly as if it had committed alone.
@Suite struct GroupCommitTests {
    let directory: TemporaryDirectory
    let store: SQLiteStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteStore(path: directory.file("sesame.db"))
        try store.write(.durable) { try $0.tenants.insert(Fixture.tenant()) }
    }

    static func user(_ index: Int) -> UserRecord {
        Fixture.user(
            "sesame|\(index)", handle: UInt8(index), email: "u\(index)@example.com", phone: nil, username: nil)
    }

    /// Runs `first` as a write on this thread that, inside its body, starts `second` as a write on
    /// another thread and runs `first` only once that one waits for the writer lock, so `second`
    /// joins `first`'s transaction. Returns what each write call returned or threw.
    func overlapping<A: Sendable, B: Sendable>(
        _ first: @escaping (any StoreTransaction) throws -> A,
        _ second: @escaping @Sendable (any StoreTransaction) throws -> B,
        firstDurability durability: Durability = .relaxed, secondDurability: Durability = .relaxed
    ) -> (Result<A, any Error>, Result<B, any Error>) {
        let store = self.store
        let secondResult = Mutex<Result<B, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let firstResult = Result {
            try store.write(durability) { transaction in
                // A thread of its own: the pool's threads may all be busy with this test's waiting.
                Thread {
                    let result = Result { try store.write(secondDurability, second) }
                    secondResult.withLock { $0 = result }
                    finished.signal()
                }.start()
                while store.writersWaiting == 0 { sched_yield() }
                return try first(transaction)
            }
        }
        finished.wait()
        return (firstResult, secondResult.withLock { $0 } ?? .failure(Abort()))
    }

    @Test func writesThatArriveTogetherShareOneCommit() throws {
        let before = store.commits
        let (first, second) = overlapping(
            { try $0.users.insert(Self.user(1)) }, { try $0.users.insert(Self.user(2)) })
        #expect(throws: Never.self) { try first.get() }
        #expect(throws: Never.self) { try second.get() }
        #expect(store.commits == before + 1)
        #expect(try store.read { try $0.users.get(tenantID: "t1", id: "sesame|1")?.profile.email } == "u1@example.com")
        #expect(try store.read { try $0.users.get(tenantID: "t1", id: "sesame|2")?.profile.email } == "u2@example.com")
    }

    @Test func aWriteThatFailsInAGroupUndoesOnlyItself() throws {
        let (first, second) = overlapping(
            { try $0.users.insert(Self.user(1)) },
            { transaction in
                try transaction.users.insert(Self.user(2))
                throw Abort()
            })
        #expect(throws: Never.self) { try first.get() }
        #expect(throws: Abort.self) { try second.get() }
        #expect(try store.read { try $0.users.get(tenantID: "t1", id: "sesame|1") } != nil)
        #expect(try store.read { try $0.users.get(tenantID: "t1", id: "sesame|2") } == nil)
    }

    @Test func aFailedFirstWriteLeavesNothingToTheNext() throws {
        let (first, second) = overlapping(
            { transaction in
                try transaction.users.insert(Self.user(1))
                throw Abort()
            }, { try $0.users.insert(Self.user(2)) })
        #expect(throws: Abort.self) { try first.get() }
        #expect(throws: Never.self) { try second.get() }
        #expect(try store.read { try $0.users.get(tenantID: "t1", id: "sesame|1") } == nil)
        #expect(try store.read { try $0.users.get(tenantID: "t1", id: "sesame|2") } != nil)
    }

    /// A later write in the group sees the earlier one's change: spending one refresh token twice
    /// in one commit is still caught by the compare-and-set.
    @Test func aCompareAndSetInAGroupSeesTheWriteBeforeIt() throws {
        try store.write(.relaxed) { try $0.refreshTokens.insert(Fixture.refreshToken()) }
        let (first, second) = overlapping(
            { try $0.refreshTokens.markUsed(tenantID: "t1", id: "r1", at: Fixture.time(5)) },
            { try $0.refreshTokens.markUsed(tenantID: "t1", id: "r1", at: Fixture.time(6)) })
        #expect(try first.get() == true)
        #expect(try second.get() == false)
        let stored = try store.read {
            try $0.refreshTokens.get(tenantID: "t1", tokenHash: Fixture.refreshToken().tokenHash)
        }
        #expect(stored?.usedAt == Fixture.time(5))
    }

    /// A durable write does not join a relaxed group (its sync level is set before BEGIN): the
    /// group commits first and the durable write commits with `synchronous = FULL` on its own. A
    /// relaxed write may join a durable group, and is then synced too.
    @Test(arguments: [(Durability.relaxed, Durability.durable, 2), (.durable, .relaxed, 1)])
    func durabilityDecidesWhoJoins(first firstDurability: Durability, second secondDurability: Durability, commits: Int)
        throws
    {
        let before = store.commits
        let (first, second) = overlapping(
            { try $0.users.insert(Self.user(1)) },
            { transaction in
                try transaction.users.insert(Self.user(2))
                return try (transaction as? SQLTransaction)?.synchronousLevel()
            }, firstDurability: firstDurability, secondDurability: secondDurability)
        #expect(throws: Never.self) { try first.get() }
        #expect(try second.get() == 2)
        #expect(store.commits == before + commits)
        #expect(try store.writerSynchronous() == 1)
    }

    /// Many writers on many threads: every write that returned is there, once.
    @Test func manyConcurrentWritersAllCommit() throws {
        let store = self.store
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            do {
                try store.write(index % 10 == 0 ? .durable : .relaxed) { try $0.users.insert(Self.user(index)) }
            } catch {
                failures.add(1, ordering: .relaxed)
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        let found = try (0..<200).filter { index in
            try store.read { try $0.users.get(tenantID: "t1", id: "sesame|\(index)") } != nil
        }
        #expect(found.count == 200)
    }
}

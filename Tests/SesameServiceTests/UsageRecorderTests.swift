import Foundation
import SesameService
import SesameStore
import Testing

@Suite("UsageRecorder")
struct UsageRecorderTests {
    func seeded() throws -> (InMemoryStore, PasskeyRecord, UserRecord) {
        let store = InMemoryStore()
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let user = UserRecord(
            tenantID: "t", id: "u1", connectionID: "c", userHandle: [1], profile: UserProfile(email: "a@b.co"),
            createdAt: at, updatedAt: at)
        let passkey = PasskeyRecord(
            tenantID: "t", id: "p1", userID: "u1", credentialID: [9], publicKey: [1], signCount: 0, aaguid: [],
            backupEligible: true, backupState: true, transports: [], name: "Passkey", attestationFormat: .none,
            createdAt: at)
        try store.write(.durable) { transaction in
            try transaction.users.insert(user)
            try transaction.passkeys.insert(passkey)
        }
        return (store, passkey, user)
    }

    @Test func batchesUntilFlushedAndNeverMovesBackwards() throws {
        let (store, _, _) = try seeded()
        let recorder = UsageRecorder(store: store)
        let later = Date(timeIntervalSince1970: 1_800_000_100)
        recorder.recordLogin(tenantID: "t", passkeyID: "p1", userID: "u1", at: later)
        #expect(try store.read { try $0.passkeys.get(tenantID: "t", id: "p1")?.lastUsedAt } == nil)
        #expect(recorder.pendingCount == 2)
        recorder.flush()
        #expect(recorder.pendingCount == 0)
        #expect(try store.read { try $0.passkeys.get(tenantID: "t", id: "p1")?.lastUsedAt } == later)
        #expect(try store.read { try $0.users.get(tenantID: "t", id: "u1")?.lastLoginAt } == later)
        recorder.recordLogin(tenantID: "t", passkeyID: "p1", userID: "u1", at: later.addingTimeInterval(-50))
        recorder.flush()
        #expect(try store.read { try $0.passkeys.get(tenantID: "t", id: "p1")?.lastUsedAt } == later)
    }

    @Test func deletedRecordsAreSkipped() throws {
        let (store, _, _) = try seeded()
        let recorder = UsageRecorder(store: store)
        recorder.recordLogin(tenantID: "t", passkeyID: "p1", userID: "u1", at: Date())
        try store.write(.durable) { try $0.users.delete(tenantID: "t", id: "u1") }
        recorder.flush()
        #expect(recorder.pendingCount == 0)
        #expect(try store.read { try $0.users.get(tenantID: "t", id: "u1") } == nil)
    }

    @Test func aFullBatchFlushesItself() throws {
        let (store, _, _) = try seeded()
        let recorder = UsageRecorder(store: store, batchSize: 1)
        recorder.recordLogin(
            tenantID: "t", passkeyID: "p1", userID: "u1", at: Date(timeIntervalSince1970: 1_800_000_500))
        #expect(recorder.pendingCount == 0)
        #expect(try store.read { try $0.passkeys.get(tenantID: "t", id: "p1")?.lastUsedAt } != nil)
    }
}

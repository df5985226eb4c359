import Foundation
import SesameClient
import Synchronization
import Testing

/// A store in memory that counts saves.
final class MemoryStore: CredentialsStore {
    private let value = Mutex<(credentials: Credentials?, saves: Int)>((nil, 0))
    init(_ credentials: Credentials? = nil) { value.withLock { $0.credentials = credentials } }
    func save(_ credentials: Credentials) throws { value.withLock { $0 = (credentials, $0.saves + 1) } }
    func load() throws -> Credentials? { value.withLock { $0.credentials } }
    func clear() throws { value.withLock { $0.credentials = nil } }
    var saves: Int { value.withLock { $0.saves } }
}

@Suite("CredentialsManager")
struct CredentialsManagerTests {
    let stored = Credentials(
        accessToken: "at-1", idToken: "id-1", refreshToken: "rt-1", expiresAt: Fixture.start.addingTimeInterval(3600))
    let rotated = #"{"access_token":"at-2","refresh_token":"rt-2","token_type":"Bearer","expires_in":3600}"#

    func manager(_ transport: StubTransport, _ store: MemoryStore, now: Date) -> CredentialsManager {
        CredentialsManager(
            authentication: Fixture.authentication(transport, now: now), store: store, now: { now })
    }

    @Test func validCredentialsComeFromTheStoreWithoutARequest() async throws {
        let transport = StubTransport()
        let store = MemoryStore(stored)
        let manager = manager(transport, store, now: Fixture.start)
        #expect(try await manager.credentials() == stored)
        #expect(transport.requests.isEmpty)
        #expect(manager.hasValidCredentials)
    }

    @Test func anExpiredAccessTokenIsRenewedAndTheRotatedRefreshTokenStored() async throws {
        let later = Fixture.start.addingTimeInterval(3600)
        let transport = StubTransport([.http(200, rotated)])
        let store = MemoryStore(stored)
        let renewed = try await manager(transport, store, now: later).credentials()
        #expect(renewed.accessToken == "at-2")
        #expect(renewed.refreshToken == "rt-2")
        #expect(renewed.idToken == "id-1")  // not resent: kept
        #expect(renewed.expiresAt == later.addingTimeInterval(3600))
        #expect(try store.load() == renewed)
        #expect(try transport.body(0)["refresh_token"] as? String == "rt-1")
    }

    @Test func minTTLRenewsEarly() async throws {
        let transport = StubTransport([.http(200, rotated)])
        let store = MemoryStore(stored)
        let manager = manager(transport, store, now: Fixture.start)
        _ = try await manager.credentials(minTTL: 3000)
        #expect(transport.requests.isEmpty)  // 3600 s left: enough
        _ = try await manager.credentials(minTTL: 3600)
        #expect(transport.requests.count == 1)
    }

    @Test func concurrentCallersShareOneRenewal() async throws {
        let later = Fixture.start.addingTimeInterval(3600)
        let transport = StubTransport([.http(200, rotated)])  // a second refresh would find no reply
        let store = MemoryStore(stored)
        let manager = manager(transport, store, now: later)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<5 { group.addTask { try await manager.credentials().accessToken } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(tokens == Array(repeating: "at-2", count: 5))
        #expect(transport.requests.count == 1)
        #expect(store.saves == 1)
    }

    @Test func aRefusedRefreshTokenIsUnauthorizedAndKeepsTheStore() async throws {
        let transport = StubTransport([
            .http(400, #"{"error":"invalid_grant","error_description":"refresh token revoked"}"#)
        ])
        let store = MemoryStore(stored)
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await manager(transport, store, now: Fixture.start.addingTimeInterval(7200)).credentials()
        }
        #expect(error?.kind == .unauthorized)
        #expect(try store.load() == stored)
    }

    @Test func nothingStoredOrNoRefreshTokenIsUnauthorized() async throws {
        let empty = await #expect(throws: AuthenticationError.self) {
            _ = try await manager(StubTransport(), MemoryStore(), now: Fixture.start).credentials()
        }
        #expect(empty?.code == "no_credentials")
        let noRefresh = Credentials(accessToken: "at", expiresAt: Fixture.start)
        let subject = manager(StubTransport(), MemoryStore(noRefresh), now: Fixture.start)
        #expect(!subject.hasValidCredentials)
        let error = await #expect(throws: AuthenticationError.self) { _ = try await subject.credentials() }
        #expect(error?.code == "no_refresh_token")
        #expect(error?.isUnauthorized == true)
    }
}

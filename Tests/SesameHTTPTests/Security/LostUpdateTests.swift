import Dispatch
import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Synchronization
import Testing

/// Audit item 6: Management updates read a record in one transaction and wrote the whole record
/// in another, so a PATCH racing a secret rotation revived the old secret, and a PATCH racing
/// `POST /client-grants` deleted the grant just acknowledged. Each pair is now tried two ways: the
/// competing request placed at every boundary between the other's transactions (deterministic),
/// and both sent at once from two threads, many rounds.
@Suite("Audit 6: concurrent Management updates lose nothing")
struct LostUpdateTests {
    /// One scenario: a setup, two competing requests, and what must hold after both.
    struct Pair: Sendable, CustomTestStringConvertible {
        let name: String
        let setup: @Sendable (APIHarness, String) throws -> Fixture
        let first: @Sendable (APIHarness, String, Fixture) -> APIReply
        let second: @Sendable (APIHarness, String, Fixture) -> APIReply
        let check: @Sendable (APIHarness, String, Fixture, APIReply, APIReply) throws -> Void
        var testDescription: String { name }
    }

    struct Fixture: Sendable {
        let id: String
        let secret: String
    }

    static func createWorker(_ api: APIHarness, _ admin: String, grant: Bool) throws -> Fixture {
        let created = api.send(
            .post, "/api/v2/clients", json: #"{"name":"worker","app_type":"non_interactive"}"#, token: admin)
        let id = try #require(created.json["client_id"] as? String)
        let secret = try #require(created.json["client_secret"] as? String)
        if grant {
            let reply = api.send(
                .post, "/api/v2/client-grants",
                json: APIHarness.encode([
                    "client_id": id, "audience": TokenService.managementAudience(api.tenant), "scope": ["read:users"],
                ]), token: admin)
            #expect(reply.status == 201)
        }
        return Fixture(id: id, secret: secret)
    }

    static func clientCredentials(_ api: APIHarness, _ fixture: Fixture, secret: String) -> Int {
        api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "client_credentials", "client_id": fixture.id, "client_secret": secret,
                "audience": TokenService.managementAudience(api.tenant),
            ])
        ).status
    }

    static let rename: @Sendable (APIHarness, String, Fixture) -> APIReply = { api, admin, fixture in
        api.send(.patch, "/api/v2/clients/\(fixture.id)", json: #"{"name":"renamed"}"#, token: admin)
    }
    static let rotate: @Sendable (APIHarness, String, Fixture) -> APIReply = { api, admin, fixture in
        api.send(.post, "/api/v2/clients/\(fixture.id)/rotate-secret", token: admin)
    }
    static let renamedAndRotated: @Sendable (APIHarness, String, Fixture, APIReply, APIReply) throws -> Void = {
        api, admin, fixture, renamed, rotated in
        #expect(renamed.status == 200)
        #expect(rotated.status == 200)
        let secret = try #require(rotated.json["client_secret"] as? String)
        #expect(clientCredentials(api, fixture, secret: secret) == 200, "the rotated secret works")
        #expect(clientCredentials(api, fixture, secret: fixture.secret) == 401, "the old secret is dead")
        #expect(api.send(.get, "/api/v2/clients/\(fixture.id)", token: admin).json["name"] as? String == "renamed")
    }

    static let pairs: [Pair] = [
        Pair(
            name: "PATCH client vs rotate-secret", setup: { try createWorker($0, $1, grant: true) }, first: rename,
            second: rotate, check: renamedAndRotated),
        Pair(
            name: "rotate-secret vs PATCH client", setup: { try createWorker($0, $1, grant: true) }, first: rotate,
            second: rename, check: { try renamedAndRotated($0, $1, $2, $4, $3) }),
        Pair(
            name: "PATCH client vs POST client-grants", setup: { try createWorker($0, $1, grant: false) },
            first: rename,
            second: { api, admin, fixture in
                api.send(
                    .post, "/api/v2/client-grants",
                    json: APIHarness.encode([
                        "client_id": fixture.id, "audience": TokenService.managementAudience(api.tenant),
                        "scope": ["read:users"],
                    ]), token: admin)
            },
            check: { api, admin, fixture, renamed, granted in
                #expect(renamed.status == 200)
                #expect(granted.status == 201)
                let grants = api.send(.get, "/api/v2/client-grants?client_id=\(fixture.id)", token: admin).list
                #expect(grants.count == 1, "the acknowledged grant is still there")
                #expect(
                    api.send(.get, "/api/v2/clients/\(fixture.id)", token: admin).json["name"] as? String == "renamed")
            }),
        Pair(
            name: "PATCH connection vs PATCH connection",
            setup: { api, _ in
                Fixture(
                    id: try #require(try api.store.read { try $0.tenants.get(id: api.tenant.id) }?.defaultConnectionID),
                    secret: "")
            },
            first: { api, admin, fixture in
                api.send(
                    .patch, "/api/v2/connections/\(fixture.id)",
                    json: #"{"options":{"passkey_options":{"challenge_ui":"button"}}}"#, token: admin)
            },
            second: { api, admin, fixture in
                api.send(
                    .patch, "/api/v2/connections/\(fixture.id)",
                    json: #"{"options":{"passkey_options":{"user_verification":"required"}}}"#, token: admin)
            },
            check: { api, admin, fixture, first, second in
                #expect(first.status == 200)
                #expect(second.status == 200)
                let options = api.send(.get, "/api/v2/connections/\(fixture.id)", token: admin).json["options"]
                let passkey = (options as? [String: Any])?["passkey_options"] as? [String: Any]
                #expect(passkey?["challenge_ui"] as? String == "button")
                #expect(passkey?["user_verification"] as? String == "required")
            }),
    ]

    final class Box: Sendable {
        let reply = Mutex<APIReply?>(nil)
    }

    @Test(arguments: HarnessStore.allCases, pairs)
    func atEveryTransactionBoundary(_ kind: HarnessStore, _ pair: Pair) throws {
        var boundary = 0
        while true {
            let api = try APIHarness(store: kind, interleave: true)
            let interleaving = try #require(api.interleaving)
            let admin = try api.managementToken()
            let fixture = try pair.setup(api, admin)
            let box = Box()
            interleaving.arm(after: boundary) { box.reply.withLock { $0 = pair.second(api, admin, fixture) } }
            let first = pair.first(api, admin, fixture)
            guard interleaving.fired, let second = box.reply.withLock({ $0 }) else {
                // The first request made fewer transactions than `boundary`: every point was tried.
                #expect(boundary >= 2, "the first request made only \(boundary) transactions")
                break
            }
            try pair.check(api, admin, fixture, first, second)
            boundary += 1
        }
    }

    @Test(arguments: HarnessStore.allCases, pairs)
    func atTheSameTimeFromTwoThreads(_ kind: HarnessStore, _ pair: Pair) throws {
        for _ in 0..<10 {
            let api = try APIHarness(store: kind)
            let admin = try api.managementToken()
            let fixture = try pair.setup(api, admin)
            let replies = Mutex<[Int: APIReply]>([:])
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for index in 0..<2 {
                DispatchQueue.global().async(group: group) {
                    start.wait()
                    let reply = index == 0 ? pair.first(api, admin, fixture) : pair.second(api, admin, fixture)
                    replies.withLock { $0[index] = reply }
                }
            }
            start.signal()
            start.signal()
            group.wait()
            let both = replies.withLock { $0 }
            try pair.check(api, admin, fixture, try #require(both[0]), try #require(both[1]))
        }
    }
}

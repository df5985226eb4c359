import Foundation
import SesameHTTP
import SesameSoftwareAuthenticator
import SesameStore
import Testing

/// A signup answered with an error must leave no account behind. The webauthn grant wrote the new
/// user and passkey in one transaction and the refresh token in another, so a full disk between
/// the two (the PostgreSQL and SQLite disk-full suites, docs/reliability.md) made a 503 whose user
/// existed: the client was told nothing was written, and the address was taken.
@Suite("A passkey signup that fails part-way leaves nothing behind")
struct FailedWriteTests {
    @Test(arguments: HarnessStore.allCases)
    func atEveryWriteOfTheWebAuthnGrant(_ kind: HarnessStore) throws {
        var failFrom = 0
        while true {
            var failing: FailingWritesStore?
            let api = try APIHarness(store: kind) { database in
                let store = FailingWritesStore(database)
                failing = store
                return store
            }
            let store = try #require(failing)
            let email = "full\(failFrom)@example.com"
            var configuration = AuthenticatorConfiguration()
            configuration.origin = .web(APIHarness.webOrigin)
            let authenticator = SoftwareAuthenticator(configuration: configuration)
            let challenge = api.send(
                .post, "/passkey/register",
                json: APIHarness.encode(["client_id": api.bootstrap.clientID, "user_profile": ["email": email]]))
            #expect(challenge.status == 200)
            let credential = try authenticator.makeCredential(optionsJSON: challenge.body)

            store.failWrites(after: failFrom)
            let reply = api.webAuthnGrant(
                authSession: challenge.json["auth_session"] as? String ?? "", response: credential.jsonString,
                scope: "openid offline_access")
            let attempted = store.heal()

            let users = try api.store.read { transaction in
                try transaction.users.search(tenantID: api.tenant.id, query: nil, page: Page())
                    .filter { $0.profile.email == email }
            }
            if reply.status == 200 {
                #expect(users.count == 1, "after \(failFrom) writes")
                let passkeys = try api.store.read { transaction in
                    try transaction.passkeys.list(tenantID: api.tenant.id, userID: users.first?.id ?? "")
                }
                #expect(passkeys.count == 1, "after \(failFrom) writes")
                let refreshToken = try #require(reply.json["refresh_token"] as? String)
                #expect(api.refresh(refreshToken).status == 200, "after \(failFrom) writes")
            } else {
                #expect(reply.status == 503, "after \(failFrom) writes: \(reply.status) \(reply.json)")
                #expect(reply.error == "temporarily_unavailable")
                #expect(reply.headers["Retry-After"] == "1")
                #expect(users.isEmpty, "a signup answered \(reply.status) after \(failFrom) writes left its user")
                // Nothing holds the address: signing up with it again works.
                let again = try api.signUpForTokens(authenticator, email: email, scope: "openid offline_access")
                #expect(again["refresh_token"] is String)
            }
            guard attempted > failFrom else {
                // No write failed this time: every starting point was tried.
                #expect(reply.status == 200)
                #expect(failFrom >= 1, "the grant made only \(failFrom) writes")
                break
            }
            failFrom += 1
        }
    }
}

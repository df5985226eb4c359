import Dispatch
import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Synchronization
import Testing

/// Two server processes on one database, in-process: each has its own application, configuration
/// cache and key cache, and they share only the store (issue 9: auth sessions in the store, the
/// configuration generation). The cluster test does the same with real processes.
@Suite("Two processes on one store")
struct SharedStoreTests {
    @Test(
        "a signup and a login challenge taken at one process are redeemed at the other",
        arguments: HarnessStore.allCases)
    func challengesCrossProcesses(store: HarnessStore) throws {
        let api = try APIHarness(store: store, sessionsInStore: true)
        let other = try api.peer()
        let authenticator = api.authenticator()
        let challenge = api.send(
            .post, "/passkey/register",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "user_profile": ["email": "two@example.com"]])
        )
        #expect(challenge.status == 200)
        let credential = try authenticator.makeCredential(optionsJSON: challenge.body)
        let signup = Self.grant(api, challenge, credential.jsonString, via: other)
        #expect(signup.status == 200, "\(signup.json)")

        let login = api.send(
            .post, "/passkey/challenge", json: APIHarness.encode(["client_id": api.bootstrap.clientID]), via: other)
        let assertion = try authenticator.getAssertion(optionsJSON: login.body)
        let token = Self.grant(api, login, assertion.jsonString, via: nil)
        #expect(token.status == 200, "\(token.json)")
        // Single use across processes: the same session is gone at both.
        #expect(Self.grant(api, login, assertion.jsonString, via: other).error == "invalid_grant")
    }

    @Test(
        "the same auth session redeemed at both processes at once: exactly one succeeds",
        arguments: HarnessStore.allCases)
    func oneRedemption(store: HarnessStore) throws {
        let api = try APIHarness(store: store, sessionsInStore: true)
        let other = try api.peer()
        let authenticator = api.authenticator()
        _ = try api.signUp(authenticator, email: "race@example.com")
        let login = api.send(
            .post, "/passkey/challenge", json: APIHarness.encode(["client_id": api.bootstrap.clientID]))
        let assertion = try authenticator.getAssertion(optionsJSON: login.body).jsonString
        let successes = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 6) { index in
            if Self.grant(api, login, assertion, via: index.isMultiple(of: 2) ? other : nil).status == 200 {
                successes.add(1, ordering: .relaxed)
            }
        }
        #expect(successes.load(ordering: .relaxed) == 1)
    }

    @Test(
        "a Management API change made through one process shows at the other on its next request",
        arguments: HarnessStore.allCases)
    func configurationReachesTheOtherProcess(store: HarnessStore) throws {
        let api = try APIHarness(store: store, sessionsInStore: true)
        let other = try api.peer()
        // The other process reads (and caches) the client first.
        let before = api.send(.get, "/.well-known/apple-app-site-association", via: other)
        #expect((before.json["webcredentials"] as? [String: Any])?["apps"] as? [String] == [])
        let patched = api.send(
            .patch, "/api/v2/clients/\(api.bootstrap.clientID)",
            json: #"{"mobile":{"ios":{"team_id":"ABCDE12345","app_bundle_identifier":"com.example.app"}}}"#,
            token: try api.managementToken())
        #expect(patched.status == 200)
        let after = api.send(.get, "/.well-known/apple-app-site-association", via: other)
        #expect(
            (after.json["webcredentials"] as? [String: Any])?["apps"] as? [String] == ["ABCDE12345.com.example.app"])
        // A client the other process has cached loses the passkey grant at this one: the other
        // refuses its challenges on the next request.
        let cached = api.send(
            .post, "/passkey/challenge", json: APIHarness.encode(["client_id": api.bootstrap.clientID]), via: other)
        #expect(cached.status == 200)
        let third = api.send(
            .patch, "/api/v2/clients/\(api.bootstrap.clientID)", json: #"{"grant_types":["refresh_token"]}"#,
            token: try api.managementToken())
        #expect(third.status == 200)
        let refused = api.send(
            .post, "/passkey/challenge", json: APIHarness.encode(["client_id": api.bootstrap.clientID]), via: other)
        #expect(refused.status == 403, "\(refused.json)")
    }

    static func grant(_ api: APIHarness, _ challenge: APIReply, _ response: String, via other: HTTPResponder?)
        -> APIReply
    {
        let body =
            #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"\#(api.bootstrap.clientID)","#
            + #""auth_session":"\#(challenge.json["auth_session"] as? String ?? "")","authn_response":\#(response)}"#
        return api.send(.post, "/oauth/token", json: body, via: other)
    }
}

import Foundation
import SesameHTTP
import SesameService
import Testing

/// Audit item 5 through the API: a signup challenge holds at most a fixed budget of client text,
/// one client address holds at most so many pending ceremonies (429 beyond), and the server's
/// timer drops expired ones.
@Suite("Audit 5: pending ceremonies through the API")
struct PendingCeremonyTests {
    @Test(arguments: HarnessStore.allCases)
    func oneAddressGets429BeyondItsPendingCeremonies(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind, pendingCeremonies: PendingCeremonyLimits(total: 1_000, perAddress: 3))
        let login = APIHarness.encode(["client_id": api.bootstrap.clientID])
        var sessions: [String] = []
        for _ in 0..<3 {
            let reply = api.send(.post, "/passkey/challenge", json: login)
            #expect(reply.status == 200)
            sessions.append(reply.json["auth_session"] as? String ?? "")
        }
        let refused = api.send(.post, "/passkey/challenge", json: login)
        #expect(refused.status == 429)
        #expect(refused.error == "too_many_requests")
        #expect(refused.headers["Retry-After"] == "60")
        let signup = api.send(
            .post, "/passkey/register",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "user_profile": ["email": "a@example.com"]]))
        #expect(signup.status == 429)

        // Redeeming one (even unsuccessfully) frees its place.
        let spent = api.webAuthnGrant(authSession: sessions[0], response: "{}", scope: "openid")
        #expect(spent.status == 400)
        #expect(api.send(.post, "/passkey/challenge", json: login).status == 200)

        // After the challenge timeout the server's periodic sweep frees the rest.
        api.clock.advance(by: PasskeyService.challengeTimeout + 1)
        api.application.flush()
        for _ in 0..<3 { #expect(api.send(.post, "/passkey/challenge", json: login).status == 200) }
    }

    @Test(arguments: HarnessStore.allCases)
    func aSignupHoldsAtMostTheTextBudget(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        // Ten metadata values of 500 characters: within Auth0's per-field limits, over the budget.
        var metadata: [String: String] = [:]
        for index in 0..<10 { metadata["k\(index)"] = String(repeating: "v", count: 500) }
        let over = api.send(
            .post, "/passkey/register",
            json: APIHarness.encode([
                "client_id": api.bootstrap.clientID, "user_profile": ["email": "a@example.com"],
                "user_metadata": metadata,
            ]))
        #expect(over.status == 400)
        #expect(
            over.errorDescription == "user_profile and user_metadata together hold more than 2048 bytes of text")
        // A profile within it signs up with every field kept through the packed pending form.
        let challenge = api.send(
            .post, "/passkey/register",
            json: APIHarness.encode([
                "client_id": api.bootstrap.clientID,
                "user_profile": ["email": "b@example.com", "name": "B\u{E9}a", "nickname": "bea"],
                "user_metadata": ["plan": "pro", "ref": String(repeating: "r", count: 500)],
            ]))
        #expect(challenge.status == 200)
        let credential = try api.authenticator().makeCredential(optionsJSON: challenge.body)
        let tokens = api.webAuthnGrant(
            authSession: challenge.json["auth_session"] as? String ?? "", response: credential.jsonString,
            scope: "openid")
        #expect(tokens.status == 200)
        let user = try #require(api.send(.get, "/api/v2/users", token: try api.managementToken()).list.first)
        #expect(user["name"] as? String == "B\u{E9}a")
        #expect(user["nickname"] as? String == "bea")
        let stored = user["user_metadata"] as? [String: String]
        #expect(stored?["plan"] == "pro")
        #expect(stored?["ref"]?.count == 500)
    }
}

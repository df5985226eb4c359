import Foundation
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import Testing

/// Audit item 11: login said "the user is blocked" before checking the signature, so anyone with
/// a credential id learned that its user was blocked. The signature is now checked first. The
/// signup side names a taken identifier (documented, as Auth0 does by default); a tenant can hide
/// it with Auth0's `flags.enable_public_signup_user_exists_error`.
@Suite("Audit 11: no blocked-user oracle; signup enumeration can be hidden")
struct EnumerationTests {
    @Test(arguments: HarnessStore.allCases)
    func aBlockedUserIsOnlyNamedToWhoeverSignedTheAssertion(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let laptop = api.authenticator()
        let session = try api.signUp(laptop, email: "ada@example.com")
        let user = session.userID.replacingOccurrences(of: "|", with: "%7C")
        #expect(
            api.send(.patch, "/api/v2/users/\(user)", json: #"{"blocked":true}"#, token: try api.managementToken())
                .status == 200)

        // A forged assertion for the blocked user's credential: a signature that does not verify.
        let challenge = api.send(
            .post, "/passkey/challenge", json: APIHarness.encode(["client_id": api.bootstrap.clientID]))
        let assertion = try laptop.getAssertion(optionsJSON: challenge.body)
        var document = try #require(try JSONSerialization.jsonObject(with: Data(assertion.json)) as? [String: Any])
        var response = try #require(document["response"] as? [String: Any])
        response["signature"] =
            "MEUCIQDf5H8kPHZ1XdGbHM0bW0W9p2nt9o8Tj6yHqVsDJq0HnQIgYk4vQ4h3Xo6kM2w7M0vN4Q1cK3xgJwZC0mUUgrR7oY0"
        document["response"] = response
        let forged = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        let refused = api.webAuthnGrant(
            authSession: challenge.json["auth_session"] as? String ?? "", response: forged, scope: "openid")
        #expect(refused.status == 400)
        #expect(refused.error == "invalid_grant")
        #expect(refused.errorDescription?.contains("blocked") == false, "\(refused.errorDescription ?? "")")
        #expect(refused.errorDescription?.contains("verification failed") == true)

        // The passkey's holder is told.
        let honest = api.send(
            .post, "/passkey/challenge", json: APIHarness.encode(["client_id": api.bootstrap.clientID]))
        let signed = try laptop.getAssertion(optionsJSON: honest.body)
        let told = api.webAuthnGrant(
            authSession: honest.json["auth_session"] as? String ?? "", response: signed.jsonString, scope: "openid")
        #expect(told.status == 400)
        #expect(told.errorDescription == "the user is blocked")
    }

    func signupChallenge(_ api: APIHarness, email: String) -> APIReply {
        api.send(
            .post, "/passkey/register",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "user_profile": ["email": email]]))
    }

    @Test(arguments: HarnessStore.allCases)
    func byDefaultATakenIdentifierIsNamed(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        _ = try api.signUp(api.authenticator(), email: "taken@example.com")
        let settings = api.send(.get, "/api/v2/tenant/settings", token: try api.managementToken())
        #expect(
            (settings.json["flags"] as? [String: Any])?["enable_public_signup_user_exists_error"] as? Bool == true)
        let taken = signupChallenge(api, email: "taken@example.com")
        #expect(taken.status == 400)
        #expect(taken.errorDescription == "a user with this identifier already exists")
    }

    @Test(arguments: HarnessStore.allCases)
    func aTenantCanAnswerATakenIdentifierLikeAFreeOne(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        _ = try api.signUp(api.authenticator(), email: "taken@example.com")
        let patched = api.send(
            .patch, "/api/v2/tenant/settings", json: #"{"flags":{"enable_public_signup_user_exists_error":false}}"#,
            token: try api.managementToken())
        #expect(patched.status == 200)
        #expect(
            (patched.json["flags"] as? [String: Any])?["enable_public_signup_user_exists_error"] as? Bool == false)

        // The challenge step answers the same for a taken and a free identifier.
        let taken = signupChallenge(api, email: "taken@example.com")
        let free = signupChallenge(api, email: "free@example.com")
        #expect(taken.status == 200)
        #expect(free.status == 200)
        #expect(Set(taken.json.keys) == Set(free.json.keys))

        // The token step refuses the taken one generically, and the free one signs up.
        let takenCredential = try api.authenticator().makeCredential(optionsJSON: taken.body)
        let refused = api.webAuthnGrant(
            authSession: taken.json["auth_session"] as? String ?? "", response: takenCredential.jsonString,
            scope: "openid")
        #expect(refused.status == 400)
        #expect(refused.error == "invalid_signup")
        #expect(refused.errorDescription == "Invalid sign up")
        let freeCredential = try api.authenticator().makeCredential(optionsJSON: free.body)
        let created = api.webAuthnGrant(
            authSession: free.json["auth_session"] as? String ?? "", response: freeCredential.jsonString,
            scope: "openid")
        #expect(created.status == 200)
    }

    @Test func theFlagIsReadStrictly() throws {
        let api = try APIHarness()
        let token = try api.managementToken()
        for body in [
            #"{"flags":{"enable_public_signup_user_exists_error":"no"}}"#, #"{"flags":{"other_flag":true}}"#,
            #"{"flags":true}"#,
        ] {
            let reply = api.send(.patch, "/api/v2/tenant/settings", json: body, token: token)
            #expect(reply.status == 400, "\(body)")
            #expect(reply.error == "invalid_request")
        }
    }
}

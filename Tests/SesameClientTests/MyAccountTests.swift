import Foundation
import SesameClient
import Testing

@Suite("MyAccount over a stubbed transport")
struct MyAccountTests {
    let method = #"""
        {"id":"passkey|abc","type":"passkey","name":"Laptop","key_id":"Y3JlZC0x","user_handle":"dQ",
         "aaguid":"fbfc3007-154e-4ecc-8c0b-6e020557d7bd","credential_device_type":"multi_device",
         "credential_backed_up":true,"transports":["internal","hybrid"],
         "created_at":"2027-01-15T08:00:00.000Z","last_auth_at":"2027-01-16T10:12:03.120Z"}
        """#

    func account(_ transport: StubTransport) -> MyAccount {
        MyAccount(configuration: Fixture.configuration, accessToken: "me-token", transport: transport)
    }

    @Test func listsPasskeysOnly() async throws {
        let transport = StubTransport([
            .http(200, #"{"authentication_methods":[\#(method),{"id":"password|1","type":"password"}]}"#)
        ])
        let passkeys = try await account(transport).passkeys()
        let request = try #require(transport.requests.first)
        #expect(request.url?.absoluteString == "https://login.example.com/me/v1/authentication-methods")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer me-token")
        #expect(passkeys.count == 1)
        let passkey = try #require(passkeys.first)
        #expect(passkey.id == "passkey|abc")
        #expect(passkey.keyID == "Y3JlZC0x")
        #expect(passkey.credentialBackedUp)
        #expect(passkey.createdAt == Date(timeIntervalSince1970: 1_800_000_000))
        let lastAuth = try #require(passkey.lastAuthAt)
        #expect(abs(lastAuth.timeIntervalSince1970 - 1_800_094_323.12) < 0.001)
    }

    @Test func renameAndDeleteEncodeTheID() async throws {
        let transport = StubTransport([.http(200, method), .http(204, "")])
        let renamed = try await account(transport).renamePasskey(id: "passkey|abc", name: "Work laptop")
        #expect(renamed.name == "Laptop")  // what the stub answered
        try await account(transport).deletePasskey(id: "passkey|abc")
        #expect(
            transport.requests.map { "\($0.httpMethod ?? "") \($0.url?.absoluteString ?? "")" } == [
                "PATCH https://login.example.com/me/v1/authentication-methods/passkey%7Cabc",
                "DELETE https://login.example.com/me/v1/authentication-methods/passkey%7Cabc",
            ])
        #expect(try transport.body(0) as NSDictionary == ["name": "Work laptop"])
    }

    @Test func enrollRunsChallengeProviderAndVerifyAtTheLocation() async throws {
        let location = "https://login.example.com/me/v1/authentication-methods/passkey%7Cnew"
        let transport = StubTransport([
            .http(202, Fixture.signupChallenge, headers: ["Location": location]), .http(201, method),
        ])
        let added = try await account(transport).enrollPasskey(provider: StubProvider())
        #expect(added.id == "passkey|abc")
        #expect(try transport.body(0) as NSDictionary == ["type": "passkey"])
        #expect(
            transport.requests[1].url?.absoluteString
                == "https://login.example.com/me/v1/authentication-methods/passkey%7Cnew/verify")
        let verify = try transport.body(1)
        #expect(verify["auth_session"] as? String == "session-1")
        #expect((verify["authn_response"] as? [String: Any])?["id"] as? String == "Y3JlZC0x")
    }

    @Test func enrollFollowsWhateverMethodTheLocationNames() async throws {
        let location = "https://login.example.com/me/v1/authentication-methods/passkey%7Cpending-7?x=1"
        let transport = StubTransport([
            .http(202, Fixture.signupChallenge, headers: ["Location": location]), .http(201, method),
        ])
        _ = try await account(transport).enrollPasskey(provider: StubProvider())
        #expect(
            transport.requests[1].url?.absoluteString
                == "https://login.example.com/me/v1/authentication-methods/passkey%7Cpending-7/verify")
    }

    @Test func anEnrollmentAnswerWithoutLocationIsAnInvalidResponse() async throws {
        let transport = StubTransport([.http(202, Fixture.signupChallenge)])
        let error = await #expect(throws: AuthenticationError.self) {
            try await account(transport).enrollPasskey(provider: StubProvider())
        }
        #expect(error?.kind == .invalidResponse)
        #expect(transport.requests.count == 1)
    }

    @Test func aProblemBodyGivesItsTitleAsTheCode() async throws {
        let transport = StubTransport([
            .http(
                409,
                #"{"type":"urn:sesame:error:last_authentication_method","status":409,"title":"last_authentication_method","detail":"add another passkey first"}"#,
                headers: ["Content-Type": "application/problem+json"])
        ])
        let error = await #expect(throws: AuthenticationError.self) {
            try await account(transport).deletePasskey(id: "passkey|abc")
        }
        #expect(error?.statusCode == 409)
        #expect(error?.code == "last_authentication_method")
        #expect(error?.errorDescription == "add another passkey first")
    }

    @Test func deletingTheLastPasskeyIsAConflict() async throws {
        let transport = StubTransport([
            .http(409, #"{"error":"conflict","error_description":"the user's last passkey cannot be deleted"}"#)
        ])
        let error = await #expect(throws: AuthenticationError.self) {
            try await account(transport).deletePasskey(id: "passkey|abc")
        }
        #expect(error?.statusCode == 409)
        #expect(error?.code == "conflict")
    }

    @Test func theAudienceIsTheDomainWithMe() {
        #expect(MyAccount.myAccountAudience(Fixture.domain) == "https://login.example.com/me/")
        let slash = SesameConfiguration(domain: URL(fileURLWithPath: "/"), clientID: "c")
        #expect(slash.myAccountAudience.hasSuffix("/me/"))
        #expect(
            SesameConfiguration(domain: URL(string: "http://localhost:8080/") ?? Fixture.domain, clientID: "c")
                .myAccountAudience == "http://localhost:8080/me/")
    }
}

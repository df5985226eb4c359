import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Testing

/// Audit item 8: removing a credential did not end what it had started. Deleting a passkey left
/// the refresh tokens of its logins working, /userinfo served a blocked user, and a deleted m2m
/// client's Management tokens worked until they expired. The policy now (docs/security.md):
/// refresh families die with the passkey, the user or the client they came from; access tokens
/// live until they expire, but Sesame's own APIs check the user or client behind them each time.
@Suite("Audit 8: removing a credential ends what it started")
struct CredentialRemovalTests {
    /// The authentication-method id of the passkey with this credential id.
    static func methodID(_ api: APIHarness, credentialID: [UInt8]) throws -> String {
        try #require(
            try api.store.read { try $0.passkeys.get(tenantID: api.tenant.id, credentialID: credentialID) }?.id)
    }

    @Test(arguments: HarnessStore.allCases)
    func deletingAPasskeyRevokesTheRefreshFamiliesOfItsLogins(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let laptop = api.authenticator()
        let signup = try api.signUpForTokens(laptop, email: "ada@example.com")
        let laptopFamily = try #require(signup["refresh_token"] as? String)
        let account = try api.logIn(laptop)
        let phone = api.authenticator()
        let phoneID = try api.enroll(phone, accessToken: account.accessToken)
        let phoneFamily = try #require(try api.logInForTokens(phone)["refresh_token"] as? String)
        let laptopLogin = try #require(try api.logInForTokens(laptop)["refresh_token"] as? String)

        // The user deletes the laptop's passkey at My Account: both of its families end.
        let laptopCredential = try #require(try laptop.store.allCredentials().first)
        let laptopID = try Self.methodID(api, credentialID: laptopCredential.id)
        let deleted = api.send(
            .delete, "/me/v1/authentication-methods/\(laptopID.replacingOccurrences(of: "|", with: "%7C"))",
            token: account.accessToken)
        #expect(deleted.status == 204)
        #expect(api.refresh(laptopFamily).error == "invalid_grant")
        #expect(api.refresh(laptopLogin).error == "invalid_grant")
        // The phone's family is untouched.
        let renewed = api.refresh(phoneFamily)
        #expect(renewed.status == 200)
        let phoneSuccessor = try #require(renewed.json["refresh_token"] as? String)

        // An operator deletes the phone's passkey: its family ends too, successors included.
        let admin = try api.managementToken()
        let removed = api.send(
            .delete,
            "/api/v2/users/\(account.userID.replacingOccurrences(of: "|", with: "%7C"))/authentication-methods/"
                + phoneID.replacingOccurrences(of: "|", with: "%7C"), token: admin)
        #expect(removed.status == 204)
        #expect(api.refresh(phoneSuccessor).error == "invalid_grant")
    }

    /// How an operator removes a user: block them, or delete them.
    enum Removal: String, CaseIterable, Sendable {
        case block
        case delete
    }

    @Test(arguments: HarnessStore.allCases, Removal.allCases)
    func aBlockedOrDeletedUserIsRefusedEverywhere(_ kind: HarnessStore, _ removal: Removal) throws {
        let api = try APIHarness(store: kind)
        let laptop = api.authenticator()
        let tokens = try api.signUpForTokens(laptop, email: "bo@example.com")
        let accessToken = try #require(tokens["access_token"] as? String)
        let refreshToken = try #require(tokens["refresh_token"] as? String)
        let account = try api.logIn(laptop)
        #expect(api.send(.get, "/userinfo", token: accessToken).status == 200)
        #expect(api.send(.get, "/me/v1/authentication-methods", token: account.accessToken).status == 200)

        let user = "/api/v2/users/" + account.userID.replacingOccurrences(of: "|", with: "%7C")
        let admin = try api.managementToken()
        switch removal {
        case .block: #expect(api.send(.patch, user, json: #"{"blocked":true}"#, token: admin).status == 200)
        case .delete: #expect(api.send(.delete, user, token: admin).status == 204)
        }
        let userInfo = api.send(.get, "/userinfo", token: accessToken)
        #expect(userInfo.status == 401)
        #expect(userInfo.error == "invalid_token")
        #expect(api.send(.get, "/me/v1/authentication-methods", token: account.accessToken).status == 401)
        #expect(api.refresh(refreshToken).error == "invalid_grant")
    }

    @Test(arguments: HarnessStore.allCases)
    func aDeletedOrNarrowedClientsManagementTokensStopAtOnce(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let admin = try api.managementToken()
        let created = api.send(
            .post, "/api/v2/clients", json: #"{"name":"reports","app_type":"non_interactive"}"#, token: admin)
        let id = try #require(created.json["client_id"] as? String)
        let secret = try #require(created.json["client_secret"] as? String)
        let grant = api.send(
            .post, "/api/v2/client-grants",
            json: APIHarness.encode([
                "client_id": id, "audience": TokenService.managementAudience(api.tenant),
                "scope": ["read:users", "read:clients"],
            ]), token: admin)
        let grantID = try #require(grant.json["id"] as? String)
        let minted = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "client_credentials", "client_id": id, "client_secret": secret,
                "audience": TokenService.managementAudience(api.tenant),
            ]))
        let token = try #require(minted.json["access_token"] as? String)
        #expect(api.send(.get, "/api/v2/users", token: token).status == 200)

        // The grant loses read:users: the token's read:users stops working, read:clients goes on.
        #expect(
            api.send(.patch, "/api/v2/client-grants/\(grantID)", json: #"{"scope":["read:clients"]}"#, token: admin)
                .status == 200)
        let narrowed = api.send(.get, "/api/v2/users", token: token)
        #expect(narrowed.status == 403)
        #expect(narrowed.error == "insufficient_scope")
        #expect(api.send(.get, "/api/v2/clients", token: token).status == 200)

        // The client is deleted: its token is refused outright.
        #expect(api.send(.delete, "/api/v2/clients/\(id)", token: admin).status == 204)
        let gone = api.send(.get, "/api/v2/clients", token: token)
        #expect(gone.status == 401)
        #expect(gone.error == "invalid_token")
    }
}

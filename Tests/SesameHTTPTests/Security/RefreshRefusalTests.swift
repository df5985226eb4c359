import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Testing

/// Audit item 3: the refresh grant rotated the token in a committed write before it checked the
/// scope, so an `invalid_scope` answer lost the successor and the client's retry revoked the
/// family. Now every check comes first and the rotation is the last step (RFC 6749 §6, RFC 9700
/// §4.14.2).
@Suite("Audit 3: a refused refresh keeps the token usable")
struct RefreshRefusalTests {
    @Test(arguments: HarnessStore.allCases)
    func aScopeThatWasNotGrantedIsRefusedWithoutBurningTheToken(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let tokens = try api.signUpForTokens(
            api.authenticator(), email: "ada@example.com", scope: "openid profile offline_access")
        let refreshToken = try #require(tokens["refresh_token"] as? String)

        let refused = api.refresh(refreshToken, scope: "openid email")
        #expect(refused.status == 400)
        #expect(refused.error == "invalid_scope")

        // The same token still works, once, and its successor works too.
        let renewed = api.refresh(refreshToken)
        #expect(renewed.status == 200, "\(renewed.json)")
        let successor = try #require(renewed.json["refresh_token"] as? String)
        #expect(successor != refreshToken)
        #expect(renewed.json["scope"] as? String == "openid profile offline_access")
        #expect(api.refresh(successor, scope: "openid").status == 200)
    }

    @Test(arguments: HarnessStore.allCases)
    func aMalformedScopeIsRefusedWithoutBurningTheToken(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let tokens = try api.signUpForTokens(api.authenticator(), email: "bo@example.com")
        let refreshToken = try #require(tokens["refresh_token"] as? String)
        #expect(api.refresh(refreshToken, scope: "openid \"quoted\"").error == "invalid_scope")
        #expect(api.refresh(refreshToken).status == 200)
    }

    @Test(arguments: HarnessStore.allCases)
    func aRefusalWritesNothing(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let tokens = try api.signUpForTokens(api.authenticator(), email: "cy@example.com")
        let refreshToken = try #require(tokens["refresh_token"] as? String)
        let hash = try #require(RefreshTokens.hash(ofToken: refreshToken))
        let before = try api.store.read { try $0.refreshTokens.get(tenantID: api.tenant.id, tokenHash: hash) }
        #expect(api.refresh(refreshToken, scope: "phone").error == "invalid_scope")
        let after = try api.store.read { try $0.refreshTokens.get(tenantID: api.tenant.id, tokenHash: hash) }
        #expect(before == after)
        #expect(after?.usedAt == nil)
    }

    @Test(arguments: HarnessStore.allCases)
    func reuseAfterARotationStillRevokesTheFamily(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let tokens = try api.signUpForTokens(api.authenticator(), email: "di@example.com")
        let first = try #require(tokens["refresh_token"] as? String)
        let second = try #require(api.refresh(first).json["refresh_token"] as? String)
        let reuse = api.refresh(first)
        #expect(reuse.status == 400)
        #expect(reuse.error == "invalid_grant")
        #expect(reuse.errorDescription == "Unknown or invalid refresh token.")
        // The successor was in the family, so it is revoked too.
        #expect(api.refresh(second).error == "invalid_grant")
    }
}

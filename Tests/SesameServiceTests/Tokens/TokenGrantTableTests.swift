import Foundation
import SesameStore
import Testing

@testable import SesameService

/// The token endpoint's table of grants (`TokenGrant`) and their field tables.
@Suite("Token grant table")
struct TokenGrantTableTests {
    @Test func everyGrantTypeHasExactlyTheGrantThatNamesIt() throws {
        let world = try ServiceWorld()
        for type in OAuthGrantType.allCases {
            let grant = try #require(world.tokens.grants[type], "no grant for \(type.rawValue)")
            #expect(grant.grantTypes.contains(type))
        }
    }

    @Test func eachTableNamesAFieldOnceWithALimit() {
        func check<P: GrantParameters>(_: P.Type) {
            let names = P.fields.map(\.name)
            #expect(Set(names).count == names.count, "\(P.self) names a field twice")
            for field in P.fields where field.name != "authn_response" {
                #expect((field.maxLength ?? 0) > 0, "\(P.self).\(field.name) has no limit")
            }
        }
        check(PasskeyGrant.Parameters.self)
        check(PasswordGrant.Parameters.self)
        check(MFAGrant.Parameters.self)
        check(DeviceKeyGrant.Parameters.self)
        check(AppleGrant.Parameters.self)
        check(RefreshGrant.Parameters.self)
        check(AuthorizationCodeGrant.Parameters.self)
        check(ClientCredentialsGrant.Parameters.self)
    }

    @Test func aFieldLongerThanItsLimitIsRefusedByName() throws {
        let world = try ServiceWorld()
        #expect(throws: ServiceError.invalidRequest("refresh_token is longer than 512 bytes")) {
            _ = try world.tokens.token(
                tenant: world.tenant,
                request: TokenCall(
                    grantType: OAuthGrantType.refreshToken.rawValue, credentials: world.native,
                    fields: ["refresh_token": String(repeating: "r", count: 513)]))
        }
    }

    /// RFC 6749 §3.2: a parameter the grant does not read is ignored, whatever it holds.
    @Test func aFieldAnotherGrantReadsIsIgnored() throws {
        let world = try ServiceWorld()
        let credentials = ClientCredentials(
            clientID: world.bootstrap.managementClientID, clientSecret: world.bootstrap.managementClientSecret)
        let issued = try world.tokens.token(
            tenant: world.tenant,
            request: TokenCall(
                grantType: OAuthGrantType.clientCredentials.rawValue, credentials: credentials,
                fields: [
                    "audience": TokenService.managementAudience(world.tenant),
                    "password": String(repeating: "p", count: 10_000), "refresh_token": "not read here",
                ]))
        #expect(!issued.accessToken.isEmpty)
        #expect(issued.refreshToken == nil)
    }
}

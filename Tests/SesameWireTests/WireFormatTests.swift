import Foundation
import SesameWire
import Testing

@Suite("Wire format")
struct WireFormatTests {
    func json(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func tokenResponseUsesOAuthNames() throws {
        let object = try json(
            TokenResponse(accessToken: "a", idToken: "i", refreshToken: "r", expiresIn: 60, scope: "openid"))
        #expect(Set(object.keys) == ["access_token", "id_token", "refresh_token", "token_type", "expires_in", "scope"])
        #expect(object["token_type"] as? String == "Bearer")
    }

    @Test func sesamesVocabulariesReadAsEnums() throws {
        let body = #"""
            {"access_token":"a","token_type":"Bearer","expires_in":60,"password_status":"breached",
             "recommended_upgrades":["passkey","sign_in_with_apple","strong_password"],"auth_method":"device_key"}
            """#
        let response = try JSONDecoder().decode(TokenResponse.self, from: Data(body.utf8))
        #expect(response.passwordStatus == .breached)
        #expect(response.recommendedUpgrades == [.passkey, .signInWithApple, .strongPassword])
        #expect(response.authMethod == .deviceKey)
        let again = try JSONDecoder().decode(TokenResponse.self, from: JSONEncoder().encode(response))
        #expect(again == response)
    }

    /// A newer server's value is advice this build cannot act on: it reads as absent, and the
    /// sign-in it came with still succeeds.
    @Test func anUnknownValueOfSesamesVocabulariesReadsAsAbsent() throws {
        let body = #"""
            {"access_token":"a","token_type":"Bearer","expires_in":60,"password_status":"pwned",
             "recommended_upgrades":["hardware_key","passkey"],"auth_method":"carrier_pigeon"}
            """#
        let response = try JSONDecoder().decode(TokenResponse.self, from: Data(body.utf8))
        #expect(response.accessToken == "a")
        #expect(response.passwordStatus == nil)
        #expect(response.recommendedUpgrades == [.passkey])
        #expect(response.authMethod == nil)
        // The fields OAuth defines stay strict.
        let broken = #"{"access_token":"a","token_type":"Bearer","expires_in":"soon"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TokenResponse.self, from: Data(broken.utf8)) }
    }

    @Test func challengeResponsesUseAuth0Names() throws {
        let options = PasskeyRequestOptions(
            challenge: "c", timeout: 60000, rpId: "example.com", userVerification: "preferred")
        let object = try json(PasskeyLoginChallengeResponse(authnParamsPublicKey: options, authSession: "s"))
        #expect(Set(object.keys) == ["authn_params_public_key", "auth_session"])
        let inner = try #require(object["authn_params_public_key"] as? [String: Any])
        #expect(Set(inner.keys) == ["challenge", "timeout", "rpId", "userVerification"])
    }

    @Test func errorResponseShape() throws {
        let object = try json(ErrorResponse(error: "invalid_request", errorDescription: "client_id is required"))
        #expect(object as NSDictionary == ["error": "invalid_request", "error_description": "client_id is required"])
    }
}

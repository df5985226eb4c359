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

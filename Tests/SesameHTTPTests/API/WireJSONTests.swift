import Foundation
import SesameWire
import Testing

@testable import SesameHTTP

/// The hand-written JSON of the login and refresh answers is byte for byte what `JSONEncoder`
/// (sorted keys, unescaped slashes) writes, with every optional present and absent.
@Suite("Hand-written wire JSON equals the Codable form")
struct WireJSONTests {
    static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try HTTPResponse.makeEncoder().encode(value), as: UTF8.self)
    }

    /// What the server sends; the direct writers must give the same bytes as the value form.
    static func written(_ value: some WireJSONWritable) -> String {
        #expect(value.wireJSONBytes == value.wireJSON.serialized)
        return String(decoding: value.wireJSONBytes, as: UTF8.self)
    }

    static let descriptor = PasskeyCreationOptions.CredentialDescriptor(id: "AQID", transports: ["internal", "hybrid"])

    @Test func tokenResponses() throws {
        let full = TokenResponse(
            accessToken: "eyJ.a/b+c", idToken: "eyJ.id", refreshToken: "rt_\"quoted\"\\", tokenType: "DPoP",
            expiresIn: 86_400, scope: "openid profile https://api.example.com/read")
        let recovered = TokenResponse(accessToken: "a", expiresIn: 60, recoveryCode: "ABCD2345EFGH6789JKLM2345")
        for response in [full, recovered, TokenResponse(accessToken: "a", expiresIn: 0)] {
            #expect(Self.written(response) == (try Self.encoded(response)))
        }
        // U+2028 and U+2029 are escaped (so the text is safe inside a script), which JSONEncoder
        // does not do: the bytes differ, the value read back does not.
        let separator = TokenResponse(accessToken: "a\u{2028}b", expiresIn: 1)
        #expect(Self.written(separator).contains(#"a\u2028b"#))
        #expect(
            try JSONDecoder().decode(TokenResponse.self, from: Data(separator.wireJSONBytes)) == separator)
    }

    @Test func challenges() throws {
        let creation = PasskeyCreationOptions(
            challenge: "c-_1", timeout: 60_000, rp: .init(id: "login.example.com", name: "Example / Login"),
            pubKeyCredParams: [.init(alg: -7), .init(alg: -257)],
            authenticatorSelection: .init(residentKey: "required", userVerification: "preferred"),
            user: .init(id: "dXNlcg", name: "ada@example.com", displayName: "Ada ✨"),
            excludeCredentials: [Self.descriptor, .init(id: "BAUG")], attestation: "none")
        let bare = PasskeyCreationOptions(
            challenge: "c", timeout: 1, rp: .init(id: "x", name: "x"), pubKeyCredParams: [],
            authenticatorSelection: .init(residentKey: "preferred", userVerification: "required"),
            user: .init(id: "u", name: "n", displayName: ""))
        for options in [creation, bare] {
            let signup = PasskeySignupChallengeResponse(authnParamsPublicKey: options, authSession: "s1")
            #expect(Self.written(signup) == (try Self.encoded(signup)))
        }
        let request = PasskeyRequestOptions(
            challenge: "c", timeout: 60_000, rpId: "login.example.com", userVerification: "required",
            allowCredentials: [Self.descriptor])
        for options in [request, PasskeyRequestOptions(challenge: "c", timeout: 5, rpId: "x", userVerification: "")] {
            let login = PasskeyLoginChallengeResponse(authnParamsPublicKey: options, authSession: "s2")
            #expect(Self.written(login) == (try Self.encoded(login)))
        }
    }
}

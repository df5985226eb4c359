import Foundation
import SesameWire
import Testing

@testable import SesameClient

@Suite("Credential JSON and platform inputs (shared with the Apple adapters)")
struct PasskeyCredentialTests {
    @Test func registrationJSONFromRawPlatformValues() throws {
        let credential = try PasskeyCredential.registration(
            credentialID: Data([0xfb, 0xff, 0x01]), clientDataJSON: Data("{}".utf8), attestationObject: Data([0xa0]),
            transports: ["internal", "hybrid"], authenticatorAttachment: "platform")
        #expect(credential.id == "-_8B")
        #expect(
            String(decoding: credential.json, as: UTF8.self)
                == #"{"authenticatorAttachment":"platform","clientExtensionResults":{},"id":"-_8B","rawId":"-_8B","#
                + #""response":{"attestationObject":"oA","clientDataJSON":"e30","transports":["internal","hybrid"]},"#
                + #""type":"public-key"}"#)
    }

    @Test func assertionJSONOmitsAnEmptyUserHandle() throws {
        let withHandle = try PasskeyCredential.assertion(
            credentialID: Data([1]), clientDataJSON: Data("{}".utf8), authenticatorData: Data([2]),
            signature: Data([3]), userHandle: Data([4]))
        #expect(
            String(decoding: withHandle.json, as: UTF8.self)
                == #"{"clientExtensionResults":{},"id":"AQ","rawId":"AQ","response":{"authenticatorData":"Ag","#
                + #""clientDataJSON":"e30","signature":"Aw","userHandle":"BA"},"type":"public-key"}"#)
        let without = try PasskeyCredential.assertion(
            credentialID: Data([1]), clientDataJSON: Data("{}".utf8), authenticatorData: Data([2]),
            signature: Data([3]), userHandle: Data())
        #expect(!String(decoding: without.json, as: UTF8.self).contains("userHandle"))
    }

    @Test func credentialIDIsReadFromJSON() throws {
        #expect(try PasskeyCredential(json: Fixture.passkey.json).id == "Y3JlZC0x")
        #expect(throws: AuthenticationError.self) { _ = try PasskeyCredential(json: Data(#"{"rawId":"x"}"#.utf8)) }
    }

    @Test func registrationInputDecodesEveryBinaryMember() throws {
        let challenge = try PasskeySignupChallenge(responseBody: Data(Fixture.signupChallenge.utf8))
        let input = try PlatformRegistrationInput(challenge)
        #expect(input.relyingPartyID == "login.example.com")
        #expect(input.challenge == Data(0..<32))
        #expect(input.userID == Data("user-handle".utf8))
        #expect(input.userName == "ada@example.com")
        #expect(input.displayName == "Ada")
        #expect(input.userVerification == "preferred")
        #expect(input.excludedCredentialIDs == [Data("cred-1".utf8)])
    }

    @Test func aMemberThatIsNotBase64URLIsNamed() throws {
        let valid = try PasskeySignupChallenge(responseBody: Data(Fixture.signupChallenge.utf8))
        var options = valid.options
        options.user.id = "not+base64url"
        let broken = PasskeySignupChallenge(authSession: "s", options: options, optionsJSON: valid.optionsJSON)
        #expect(
            throws: AuthenticationError.invalidResponse("user.id in the passkey options is not base64url")
        ) { _ = try PlatformRegistrationInput(broken) }
    }

    @Test func assertionInputDecodesAllowCredentials() throws {
        let valid = try PasskeyLoginChallenge(responseBody: Data(Fixture.loginChallenge.utf8))
        #expect(try PlatformAssertionInput(valid).allowedCredentialIDs.isEmpty)
        var options = valid.options
        options.allowCredentials = [.init(id: "Y3JlZC0x"), .init(id: "Y3JlZC0y")]
        let input = try PlatformAssertionInput(
            PasskeyLoginChallenge(authSession: "s", options: options, optionsJSON: valid.optionsJSON))
        #expect(input.allowedCredentialIDs == [Data("cred-1".utf8), Data("cred-2".utf8)])
        #expect(input.relyingPartyID == "login.example.com")
    }

    @Test func base64URLIsStrict() {
        #expect(Base64URL.encode(Data([0xfb, 0xff])) == "-_8")
        #expect(Base64URL.decode("-_8") == Data([0xfb, 0xff]))
        #expect(Base64URL.decode("-_8=") == Data([0xfb, 0xff]))
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("") == Data())
    }
}

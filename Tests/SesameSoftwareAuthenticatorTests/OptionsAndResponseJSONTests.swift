import Foundation
import SesameCrypto
import SesameSoftwareAuthenticator
import Testing
import WebAuthn

/// Options JSON as Sesame's server sends it, and credential JSON as the server receives it.
@Suite struct OptionsAndResponseJSONTests {
    static let challengeText = Base64URL.encode(Fixtures.challenge)
    static let userText = Base64URL.encode(Fixtures.userHandle)

    /// The `/passkey/register` response body (docs/api.md), with excludeCredentials as My Account sends it.
    static func signupBody(exclude: String = "") -> [UInt8] {
        Array(
            """
            {"authn_params_public_key": {
               "challenge": "\(challengeText)", "timeout": 60000,
               "rp": {"id": "example.com", "name": "example.com"},
               "pubKeyCredParams": [{"type":"public-key","alg":-8},{"type":"public-key","alg":-7},{"type":"public-key","alg":-257}],
               "authenticatorSelection": {"residentKey":"required","userVerification":"preferred"},
               "user": {"id": "\(userText)", "name": "ada@example.com", "displayName": "Ada"}\(exclude)},
             "auth_session": "opaque"}
            """.utf8)
    }

    static func loginBody(allow: String = "") -> [UInt8] {
        Array(
            """
            {"authn_params_public_key": {"challenge": "\(challengeText)", "timeout": 60000, "rpId": "example.com",
              "userVerification": "preferred"\(allow)}, "auth_session": "opaque"}
            """.utf8)
    }

    @Test func readsTheSignupChallenge() throws {
        let request = try CredentialCreationRequest(optionsJSON: Self.signupBody())
        #expect(
            request
                == CredentialCreationRequest(
                    rpID: "example.com", rpName: "example.com", userHandle: Fixtures.userHandle,
                    userName: "ada@example.com", userDisplayName: "Ada", challenge: Fixtures.challenge,
                    pubKeyCredParams: [-8, -7, -257], residentKey: .required, userVerification: .preferred))
    }

    @Test func readsBareAndPublicKeyWrappedOptions() throws {
        let bare = Array(
            #"{"challenge":"AAAA","rp":{"id":"example.com"},"user":{"id":"AQ","name":"n"},"pubKeyCredParams":[{"type":"x","alg":-8},{"type":"public-key","alg":-7}],"excludeCredentials":[{"type":"public-key","id":"AgM"}]}"#
                .utf8)
        let request = try CredentialCreationRequest(optionsJSON: bare)
        #expect(request.pubKeyCredParams == [-7])
        #expect(request.userDisplayName == "n")
        #expect(request.excludeCredentials == [[2, 3]])
        #expect(request.residentKey == .discouraged)
        let wrapped = Array(#"{"publicKey":"#.utf8) + bare + Array("}".utf8)
        #expect(try CredentialCreationRequest(optionsJSON: wrapped) == request)
    }

    @Test func readsTheLoginChallenge() throws {
        let request = try CredentialAssertionRequest(
            optionsJSON: Self.loginBody(allow: #", "allowCredentials": [{"type":"public-key","id":"AQID"}]"#))
        #expect(
            request
                == CredentialAssertionRequest(
                    rpID: "example.com", challenge: Fixtures.challenge, allowCredentials: [[1, 2, 3]],
                    userVerification: .preferred))
    }

    @Test(arguments: [
        (#"{"rp":{"id":"a"},"user":{"id":"AQ","name":"n"}}"#, "challenge is missing"),
        (#"{"challenge":"A","rp":{"id":"a"},"user":{"id":"AQ","name":"n"}}"#, "challenge is not valid base64url"),
        (#"{"challenge":"AAAA","user":{"id":"AQ","name":"n"}}"#, "rp is missing"),
        (#"{"challenge":"AAAA","rp":{"id":"a"},"user":{"id":"AQ"}}"#, "user.name is missing"),
        (
            #"{"challenge":"AAAA","rp":{"id":"a"},"user":{"id":"AQ","name":"n"},"pubKeyCredParams":[{"type":"public-key","alg":"-7"}]}"#,
            "pubKeyCredParams[0].alg must be an integer"
        ),
        (
            #"{"challenge":"AAAA","rp":{"id":"a"},"user":{"id":"AQ","name":"n"},"excludeCredentials":[{"type":"public-key"}]}"#,
            "excludeCredentials[0].id is missing"
        ),
        (#"[1]"#, "options must be a JSON object"),
    ])
    func malformedCreationOptionsNameTheMember(json: String, message: String) {
        let error = Fixtures.error { _ = try CredentialCreationRequest(optionsJSON: Array(json.utf8)) }
        #expect(error?.code == .invalidOptions)
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
    }

    @Test func malformedRequestOptionsNameTheMember() {
        let error = Fixtures.error {
            _ = try CredentialAssertionRequest(optionsJSON: Array(#"{"challenge":"AAAA"}"#.utf8))
        }
        #expect(error == AuthenticatorError(.invalidOptions, "rpId is missing"))
    }

    @Test func signupAndLoginThroughJSONRoundTrip() throws {
        let authenticator = Fixtures.authenticator()
        let registration = try authenticator.makeCredential(optionsJSON: Self.signupBody())
        #expect(registration.publicKey.algorithm == .es256)
        let parsedRegistration = try RegistrationCredential(json: registration.json)
        #expect(parsedRegistration == registration.credential)
        #expect(parsedRegistration.authenticatorAttachment == "platform")

        let relyingParty = Fixtures.relyingParty()
        let state = RegistrationState(
            challenge: Fixtures.challenge, userHandle: Fixtures.userHandle, userVerification: .preferred,
            algorithms: [.edDSA, .es256, .rs256])
        let verified = try relyingParty.finishRegistration(parsedRegistration, state: state, now: Fixtures.now)

        let assertion = try authenticator.getAssertion(optionsJSON: Self.loginBody())
        let parsedAssertion = try AuthenticationCredential(json: assertion.json)
        #expect(parsedAssertion == assertion.credential)
        let authenticated = try relyingParty.finishAuthentication(
            parsedAssertion, state: AuthenticationState(challenge: Fixtures.challenge, userVerification: .preferred),
            stored: Fixtures.stored(verified))
        #expect(authenticated.userHandle == Fixtures.userHandle)
    }

    @Test func registrationJSONHasTheToJSONShape() throws {
        let registration = try Fixtures.authenticator().makeCredential(Fixtures.creation())
        let document = try JSONReader.parse(registration.json)
        guard case .object(let members) = document, case .object(let response)? = document["response"] else {
            Issue.record("not an object with a response object")
            return
        }
        #expect(
            members.map(\.name) == [
                "id", "rawId", "type", "authenticatorAttachment", "clientExtensionResults", "response",
            ])
        #expect(
            response.map(\.name) == [
                "clientDataJSON", "attestationObject", "transports", "authenticatorData", "publicKey",
                "publicKeyAlgorithm",
            ])
        #expect(document["type"]?.stringValue == "public-key")
        #expect(document["clientExtensionResults"] == .object([]))
        #expect(document["response"]?["publicKeyAlgorithm"] == .number("-7"))
        #expect(document["response"]?["transports"] == .array([.string("internal"), .string("hybrid")]))
        let authenticatorData = try Base64URL.decode(document["response"]?["authenticatorData"]?.stringValue ?? "")
        #expect(authenticatorData == registration.authenticatorData.raw)
        let spki = try Base64URL.decode(document["response"]?["publicKey"]?.stringValue ?? "")
        #expect(try PublicKey(spkiDER: spki).components == registration.publicKey.components)
    }

    @Test func assertionJSONHasTheToJSONShape() throws {
        let authenticator = Fixtures.authenticator()
        _ = try authenticator.makeCredential(Fixtures.creation())
        let assertion = try authenticator.getAssertion(Fixtures.assertion())
        let document = try JSONReader.parse(assertion.json)
        guard case .object(let response)? = document["response"] else {
            Issue.record("no response object")
            return
        }
        #expect(response.map(\.name) == ["clientDataJSON", "authenticatorData", "signature", "userHandle"])
        #expect(document["response"]?["userHandle"]?.stringValue == Self.userText)
    }
}

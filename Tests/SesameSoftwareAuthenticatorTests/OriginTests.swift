import Foundation
import SesameCrypto
import SesameSoftwareAuthenticator
import Testing
import WebAuthn

/// The origin, crossOrigin and topOrigin written into clientDataJSON.
@Suite struct OriginTests {
    @Test func clientDataJSONHasChromesMemberOrder() throws {
        let result = try Fixtures.authenticator().makeCredential(Fixtures.creation())
        let expected =
            #"{"type":"webauthn.create","challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","#
            + #""origin":"https://example.com","crossOrigin":false}"#
        #expect(String(decoding: result.credential.clientDataJSON, as: UTF8.self) == expected)
    }

    @Test func defaultOriginIsHttpsRPIDAsAnIOSAppReports() throws {
        let authenticator = Fixtures.authenticator(AuthenticatorConfiguration())
        let result = try authenticator.makeCredential(Fixtures.creation())
        let clientData = try CollectedClientData(json: result.credential.clientDataJSON)
        #expect(clientData.origin == Origin.iOSApp(rpID: Fixtures.rpID).value)
        #expect(clientData.origin == "https://example.com")
    }

    @Test func iOSAppOriginIsAcceptedWhenListed() throws {
        let authenticator = Fixtures.authenticator(AuthenticatorConfiguration(origin: .iOSApp(rpID: Fixtures.rpID)))
        let relyingParty = Fixtures.relyingParty(origins: ["https://example.com"])
        let (_, verified) = try Fixtures.register(authenticator, with: relyingParty)
        #expect(verified.clientData.origin == "https://example.com")
        let (_, authenticated) = try Fixtures.authenticate(
            authenticator, with: relyingParty, stored: Fixtures.stored(verified))
        #expect(authenticated.clientData.origin == "https://example.com")
        #expect(authenticated.credentialID == verified.credentialID)
        // The same credential is refused by a relying party that does not list the origin.
        let other = Fixtures.relyingParty(origins: ["https://other.example.com"])
        #expect(throws: WebAuthnError.self) {
            _ = try Fixtures.authenticate(authenticator, with: other, stored: Fixtures.stored(verified))
        }
    }

    @Test func androidAppOriginIsAcceptedWhenListedAndRejectedOtherwise() throws {
        let fingerprint = (0..<32).map { String(format: "%02X", $0) }.joined(separator: ":")
        let origin = try Origin.androidApp(sha256CertFingerprint: fingerprint)
        #expect(origin == .androidApp(signingCertificateSHA256: Array(0..<32)))
        #expect(origin.value == "android:apk-key-hash:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
        let authenticator = Fixtures.authenticator(AuthenticatorConfiguration(origin: origin))
        let listed = Fixtures.relyingParty(origins: [Fixtures.webOrigin, origin.value])
        let (_, verified) = try Fixtures.register(authenticator, with: listed)
        _ = try Fixtures.authenticate(authenticator, with: listed, stored: Fixtures.stored(verified))

        let error = #expect(throws: WebAuthnError.self) {
            _ = try Fixtures.authenticate(
                authenticator, with: Fixtures.relyingParty(), stored: Fixtures.stored(verified))
        }
        #expect(error?.code == .origin)
    }

    @Test func androidOriginFromTheCertificateHashesIt() {
        let certificate: [UInt8] = Array("not really a certificate".utf8)
        #expect(
            Origin.androidApp(signingCertificateDER: certificate).value
                == "android:apk-key-hash:" + Base64URL.encode(Digest.sha256(certificate)))
    }

    @Test func malformedFingerprintsAreRefused() {
        for bad in ["", "AB", String(repeating: "AB:", count: 31) + "ZZ", String(repeating: "AB:", count: 32) + "AB"] {
            #expect(Fixtures.error { _ = try Origin.androidApp(sha256CertFingerprint: bad) }?.code == .invalidOptions)
        }
    }

    @Test func crossOriginAndTopOriginAreWrittenAndChecked() throws {
        let authenticator = Fixtures.authenticator(
            AuthenticatorConfiguration(
                origin: .web(Fixtures.webOrigin), crossOrigin: true, topOrigin: "https://shop.example"))
        let result = try authenticator.makeCredential(Fixtures.creation())
        #expect(
            String(decoding: result.credential.clientDataJSON, as: UTF8.self).hasSuffix(
                #""crossOrigin":true,"topOrigin":"https://shop.example"}"#))
        let state = RegistrationState(
            challenge: Fixtures.challenge, userHandle: Fixtures.userHandle, userVerification: .preferred,
            algorithms: [.es256])
        let allowing = Fixtures.relyingParty(crossOrigin: .allow(topOrigins: ["https://shop.example"]))
        _ = try allowing.finishRegistration(result.credential, state: state, now: Fixtures.now)
        #expect(throws: WebAuthnError(.crossOrigin, "cross-origin ceremonies are not allowed")) {
            _ = try Fixtures.relyingParty().finishRegistration(result.credential, state: state, now: Fixtures.now)
        }
    }

    @Test func originsAreEscapedInJSON() throws {
        let authenticator = Fixtures.authenticator(AuthenticatorConfiguration(origin: Origin("https://a\"b\\c")))
        let result = try authenticator.makeCredential(Fixtures.creation())
        #expect(try CollectedClientData(json: result.credential.clientDataJSON).origin == "https://a\"b\\c")
    }
}

import Foundation
import SesameCrypto
import Testing
import WebAuthn

/// Registration and authentication verification: each negative test starts from a valid
/// ceremony and breaks exactly one thing.
@Suite("RelyingParty")
struct RelyingPartyTests {
    let challenge: [UInt8] = Array(repeating: 0x42, count: 32)
    let userHandle: [UInt8] = [9, 9, 9, 9]
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    func relyingParty(_ configure: (inout RelyingPartyPolicy) -> Void = { _ in }) -> RelyingParty {
        var policy = RelyingPartyPolicy(rpID: "example.com", allowedOrigins: ["https://example.com"])
        configure(&policy)
        return RelyingParty(policy: policy)
    }

    func expectCode(_ code: WebAuthnError.Code, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("expected \(code.rawValue), but the ceremony verified")
        } catch let error as WebAuthnError {
            #expect(error.code == code, "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    // MARK: Registration

    @Test(arguments: ["none", "packed"])
    func validRegistration(format: String) throws {
        let authenticator = try TestAuthenticator()
        let rp = relyingParty()
        let state = rp.beginRegistration(challenge: challenge, userHandle: userHandle)
        let result = try rp.finishRegistration(
            try authenticator.register(challenge: challenge, format: format), state: state, now: now)
        #expect(result.credentialID == authenticator.credentialID)
        #expect(result.publicKey == (try authenticator.coseKey))
        #expect(result.attestation.type == (format == "none" ? .none : .self))
        #expect(result.backupEligible && result.backupState && result.userVerified)
        #expect(result.transports == ["internal"])
    }

    @Test(arguments: [
        (KeyType.ed25519, COSEAlgorithm.edDSA), (.rsa(bits: 2048), .rs256), (.rsa(bits: 2048), .ps256),
        (.ec(.p384), .es384), (.ec(.p521), .es512),
    ])
    func everyAlgorithmRegistersAndAuthenticates(keyType: KeyType, algorithm: COSEAlgorithm) throws {
        var authenticator = try TestAuthenticator(keyType: keyType, algorithm: algorithm)
        let rp = relyingParty()
        let registration = try rp.finishRegistration(
            try authenticator.register(challenge: challenge, format: "packed"),
            state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        authenticator.signCount = 1
        let result = try rp.finishAuthentication(
            try authenticator.assert(challenge: challenge), state: rp.beginAuthentication(challenge: challenge),
            stored: StoredCredential(
                id: registration.credentialID, publicKey: registration.publicKey, signCount: 0, backupEligible: true))
        #expect(result.signCount == 1)
    }

    @Test func registrationRejectsWrongChallenge() throws {
        let rp = relyingParty()
        let response = try TestAuthenticator().register(challenge: Array(repeating: 1, count: 32))
        expectCode(.challenge) {
            _ = try rp.finishRegistration(
                response, state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
    }

    @Test func registrationRejectsWrongOrigin() throws {
        var authenticator = try TestAuthenticator()
        authenticator.origin = "https://evil.example"
        let rp = relyingParty()
        let response = try authenticator.register(challenge: challenge)
        expectCode(.origin) {
            _ = try rp.finishRegistration(
                response, state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
    }

    @Test func androidAppOriginIsAcceptedWhenListed() throws {
        var authenticator = try TestAuthenticator()
        let appOrigin = "android:apk-key-hash:" + Base64URL.encode(Digest.sha256([1, 2, 3]))
        authenticator.origin = appOrigin
        let rp = relyingParty { $0.allowedOrigins.insert(appOrigin) }
        let result = try rp.finishRegistration(
            try authenticator.register(challenge: challenge),
            state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        #expect(result.clientData.origin == appOrigin)
    }

    @Test func registrationRejectsAssertionType() throws {
        let authenticator = try TestAuthenticator()
        var response = try authenticator.register(challenge: challenge)
        response.clientDataJSON = authenticator.clientData(type: "webauthn.get", challenge: challenge)
        let rp = relyingParty()
        expectCode(.type) {
            _ = try rp.finishRegistration(
                response, state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
    }

    @Test func registrationRejectsWrongRPIDHash() throws {
        let response = try TestAuthenticator().register(
            challenge: challenge, rpIDHash: Digest.sha256(Array("other.com".utf8)))
        let rp = relyingParty()
        expectCode(.rpID) {
            _ = try rp.finishRegistration(
                response, state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
    }

    @Test func registrationRequiresUserPresence() throws {
        var authenticator = try TestAuthenticator()
        authenticator.flags.remove(.userPresent)
        let response = try authenticator.register(challenge: challenge)
        let rp = relyingParty()
        expectCode(.userPresence) {
            _ = try rp.finishRegistration(
                response, state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
    }

    @Test func registrationRequiresUserVerificationWhenPolicySaysSo() throws {
        var authenticator = try TestAuthenticator()
        authenticator.flags.remove(.userVerified)
        let response = try authenticator.register(challenge: challenge)
        let preferred = relyingParty()
        _ = try preferred.finishRegistration(
            response, state: preferred.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        let required = relyingParty { $0.userVerification = .required }
        expectCode(.userVerification) {
            _ = try required.finishRegistration(
                response, state: required.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
    }

    @Test func backupStateWithoutEligibilityIsInvalid() throws {
        var authenticator = try TestAuthenticator()
        authenticator.flags.remove(.backupEligible)
        let response = try authenticator.register(challenge: challenge)
        let rp = relyingParty()
        expectCode(.backupState) {
            _ = try rp.finishRegistration(
                response, state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
    }

    @Test func algorithmMustHaveBeenOffered() throws {
        let response = try TestAuthenticator().register(challenge: challenge)
        let rp = relyingParty { $0.allowedAlgorithms = [.edDSA] }
        expectCode(.algorithm) {
            _ = try rp.finishRegistration(
                response, state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
    }

    @Test func packedSelfAttestationSignatureIsChecked() throws {
        var response = try TestAuthenticator().register(challenge: challenge, format: "packed")
        // Same client data but a different byte in it: the self-attestation signature no longer matches.
        response.clientDataJSON = Array(
            String(decoding: response.clientDataJSON, as: UTF8.self).replacingOccurrences(of: "}", with: ",\"x\":1}")
                .utf8)
        let rp = relyingParty()
        expectCode(.signature) {
            _ = try rp.finishRegistration(
                response, state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
    }

    @Test func unknownFormatIsUnsupported() throws {
        let response = try TestAuthenticator().register(challenge: challenge, format: "made-up")
        let rp = relyingParty()
        expectCode(.unsupportedFormat) {
            _ = try rp.finishRegistration(
                response, state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
    }

    @Test func crossOriginIsRejectedByDefaultAndAllowedByPolicy() throws {
        let response = try TestAuthenticator().register(
            challenge: challenge, clientDataExtra: #","crossOrigin":true,"topOrigin":"https://top.example""#)
        let strict = relyingParty()
        expectCode(.crossOrigin) {
            _ = try strict.finishRegistration(
                response, state: strict.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
        let open = relyingParty { $0.crossOrigin = .allow(topOrigins: nil) }
        _ = try open.finishRegistration(
            response, state: open.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        let pinned = relyingParty { $0.crossOrigin = .allow(topOrigins: ["https://other.example"]) }
        expectCode(.topOrigin) {
            _ = try pinned.finishRegistration(
                response, state: pinned.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
    }

    @Test func topOriginWithoutCrossOriginIsRejected() throws {
        let response = try TestAuthenticator().register(
            challenge: challenge, clientDataExtra: #","topOrigin":"https://top.example""#)
        let rp = relyingParty { $0.crossOrigin = .allow(topOrigins: nil) }
        expectCode(.topOrigin) {
            _ = try rp.finishRegistration(
                response, state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
    }

    @Test func overlongCredentialIDIsRejected() throws {
        var authenticator = try TestAuthenticator()
        authenticator.credentialID = Array(repeating: 7, count: 1024)
        let rp = relyingParty()
        do {
            _ = try rp.finishRegistration(
                try authenticator.register(challenge: challenge),
                state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
            Issue.record("a 1024-byte credential ID verified")
        } catch let error as WebAuthnError {
            // The authenticator-data parser or step 28 may catch it first; either way it is refused.
            #expect(error.code == .malformed || error.code == .credentialID)
        }
    }

    @Test func registrationFromJSONMatchesStruct() throws {
        let response = try TestAuthenticator().register(challenge: challenge)
        let json = """
            {"id":"\(Base64URL.encode(response.id))","rawId":"\(Base64URL.encode(response.id))","type":"public-key",
             "response":{"clientDataJSON":"\(Base64URL.encode(response.clientDataJSON))",
             "attestationObject":"\(Base64URL.encode(response.attestationObject))","transports":["internal"]}}
            """
        #expect(try RegistrationCredential(json: Array(json.utf8)) == response)
    }

    @Test(arguments: [
        #"[]"#, #"{"rawId":5,"response":{}}"#, #"{"rawId":"AAAA","type":"password","response":{}}"#,
        #"{"rawId":"AAAA","id":"AAAB","response":{}}"#, #"{"rawId":"AA*A","response":{}}"#,
        #"{"rawId":"AAAA","response":{"clientDataJSON":"e30","attestationObject":7}}"#, "not json",
    ])
    func malformedCredentialJSONIsRejected(json: String) {
        expectCode(.malformed) { _ = try RegistrationCredential(json: Array(json.utf8)) }
    }

    // MARK: Authentication

    func storedCredential(_ authenticator: TestAuthenticator, signCount: UInt32 = 0, backupEligible: Bool? = true)
        throws -> StoredCredential
    {
        StoredCredential(
            id: authenticator.credentialID, publicKey: try authenticator.coseKey, signCount: signCount,
            backupEligible: backupEligible, userHandle: userHandle)
    }

    @Test func validAuthentication() throws {
        var authenticator = try TestAuthenticator()
        authenticator.signCount = 5
        let rp = relyingParty()
        let result = try rp.finishAuthentication(
            try authenticator.assert(challenge: challenge, userHandle: userHandle),
            state: rp.beginAuthentication(challenge: challenge),
            stored: try storedCredential(authenticator, signCount: 4))
        #expect(result.signCount == 5)
        #expect(!result.counterRegressed)
        #expect(result.userHandle == userHandle)
    }

    @Test func counterThatDoesNotAdvanceIsRejectedOrFlagged() throws {
        var authenticator = try TestAuthenticator()
        authenticator.signCount = 4
        let assertion = try authenticator.assert(challenge: challenge)
        let stored = try storedCredential(authenticator, signCount: 4)
        let strict = relyingParty()
        expectCode(.signCount) {
            _ = try strict.finishAuthentication(
                assertion, state: strict.beginAuthentication(challenge: challenge), stored: stored)
        }
        let lenient = relyingParty { $0.counter = .flag }
        let result = try lenient.finishAuthentication(
            assertion, state: lenient.beginAuthentication(challenge: challenge), stored: stored)
        #expect(result.counterRegressed)
        #expect(result.signCount == 4)
    }

    @Test func zeroCountersAreFine() throws {
        let authenticator = try TestAuthenticator()
        let rp = relyingParty()
        let result = try rp.finishAuthentication(
            try authenticator.assert(challenge: challenge), state: rp.beginAuthentication(challenge: challenge),
            stored: try storedCredential(authenticator, signCount: 0))
        #expect(result.signCount == 0 && !result.counterRegressed)
    }

    @Test func backupEligibilityMustNotChange() throws {
        let authenticator = try TestAuthenticator()
        let rp = relyingParty()
        expectCode(.backupState) {
            _ = try rp.finishAuthentication(
                try authenticator.assert(challenge: challenge), state: rp.beginAuthentication(challenge: challenge),
                stored: try storedCredential(authenticator, backupEligible: false))
        }
    }

    @Test func signatureByAnotherKeyIsRejected() throws {
        let authenticator = try TestAuthenticator()
        let other = try TestAuthenticator()
        let rp = relyingParty()
        expectCode(.signature) {
            _ = try rp.finishAuthentication(
                try other.assert(challenge: challenge), state: rp.beginAuthentication(challenge: challenge),
                stored: try storedCredential(authenticator))
        }
    }

    @Test func tamperedAuthenticatorDataIsRejected() throws {
        let authenticator = try TestAuthenticator()
        var assertion = try authenticator.assert(challenge: challenge)
        assertion.authenticatorData[33] ^= 0xFF  // the counter's first byte
        let rp = relyingParty()
        expectCode(.signature) {
            _ = try rp.finishAuthentication(
                assertion, state: rp.beginAuthentication(challenge: challenge),
                stored: try storedCredential(authenticator))
        }
    }

    @Test func allowCredentialsIsEnforced() throws {
        let authenticator = try TestAuthenticator()
        let rp = relyingParty()
        expectCode(.credentialID) {
            _ = try rp.finishAuthentication(
                try authenticator.assert(challenge: challenge),
                state: rp.beginAuthentication(challenge: challenge, allowCredentials: [[1, 2, 3]]),
                stored: try storedCredential(authenticator))
        }
    }

    @Test func userHandleMustBeTheOwner() throws {
        let authenticator = try TestAuthenticator()
        let rp = relyingParty()
        expectCode(.credentialID) {
            _ = try rp.finishAuthentication(
                try authenticator.assert(challenge: challenge, userHandle: [1]),
                state: rp.beginAuthentication(challenge: challenge),
                stored: try storedCredential(authenticator))
        }
    }

    @Test func assertionRequiresUserVerificationWhenRequired() throws {
        var authenticator = try TestAuthenticator()
        authenticator.flags.remove(.userVerified)
        let rp = relyingParty { $0.userVerification = .required }
        expectCode(.userVerification) {
            _ = try rp.finishAuthentication(
                try authenticator.assert(challenge: challenge), state: rp.beginAuthentication(challenge: challenge),
                stored: try storedCredential(authenticator))
        }
    }

    @Test func registrationTypeIsNotAnAssertion() throws {
        let authenticator = try TestAuthenticator()
        var assertion = try authenticator.assert(challenge: challenge)
        assertion.clientDataJSON = authenticator.clientData(type: "webauthn.create", challenge: challenge)
        let rp = relyingParty()
        expectCode(.type) {
            _ = try rp.finishAuthentication(
                assertion, state: rp.beginAuthentication(challenge: challenge),
                stored: try storedCredential(authenticator))
        }
    }

    @Test func tokenBindingStatusIsChecked() throws {
        let rp = relyingParty()
        let bad = try TestAuthenticator().register(
            challenge: challenge, clientDataExtra: #","tokenBinding":{"status":"not-supported"}"#)
        expectCode(.tokenBinding) {
            _ = try rp.finishRegistration(
                bad, state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
        }
        let ignored = try TestAuthenticator().register(
            challenge: challenge, clientDataExtra: #","tokenBinding":"unused""#)
        _ = try rp.finishRegistration(
            ignored, state: rp.beginRegistration(challenge: challenge, userHandle: userHandle), now: now)
    }
}

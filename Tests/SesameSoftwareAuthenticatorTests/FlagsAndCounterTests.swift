import Foundation
import SesameSoftwareAuthenticator
import Testing
import WebAuthn

/// Flags and signature counters follow the configuration, and the relying party sees them.
@Suite struct FlagsAndCounterTests {
    @Test func defaultsLookLikeASyncedPasskey() throws {
        let relyingParty = Fixtures.relyingParty(userVerification: .required)
        let authenticator = Fixtures.authenticator()
        let (registration, verified) = try Fixtures.register(authenticator, with: relyingParty)
        #expect(
            registration.authenticatorData.flags == [
                .userPresent, .userVerified, .backupEligible, .backupState, .attestedCredentialData,
            ])
        #expect(verified.backupEligible && verified.backupState && verified.userVerified)
        #expect(verified.signCount == 0)
        let (assertion, authenticated) = try Fixtures.authenticate(
            authenticator, with: relyingParty, stored: Fixtures.stored(verified))
        #expect(assertion.authenticatorData.flags == [.userPresent, .userVerified, .backupEligible, .backupState])
        #expect(authenticated.signCount == 0)
        #expect(!authenticated.counterRegressed)
    }

    @Test func zeroCounterStaysZero() throws {
        let relyingParty = Fixtures.relyingParty()
        let authenticator = Fixtures.authenticator()
        let (_, verified) = try Fixtures.register(authenticator, with: relyingParty)
        for _ in 0..<3 {
            let (assertion, authenticated) = try Fixtures.authenticate(
                authenticator, with: relyingParty, stored: Fixtures.stored(verified))
            #expect(assertion.authenticatorData.signCount == 0)
            #expect(authenticated.signCount == 0)
        }
        #expect(try authenticator.store.credential(id: verified.credentialID)?.signCount == 0)
    }

    @Test func incrementingCounterAdvancesAndThePartySeesIt() throws {
        let relyingParty = Fixtures.relyingParty()
        let authenticator = Fixtures.authenticator(
            AuthenticatorConfiguration(signCounter: .increment, origin: .web(Fixtures.webOrigin)))
        let (_, verified) = try Fixtures.register(authenticator, with: relyingParty)
        #expect(verified.signCount == 0)
        var stored = Fixtures.stored(verified)
        for expected in UInt32(1)...3 {
            let (assertion, authenticated) = try Fixtures.authenticate(
                authenticator, with: relyingParty, stored: stored)
            #expect(assertion.authenticatorData.signCount == expected)
            #expect(assertion.storedCredential.signCount == expected)
            #expect(authenticated.signCount == expected)
            stored.signCount = authenticated.signCount
        }
        // Replaying against a record that already saw a later counter is a regression the party rejects.
        stored.signCount = 10
        #expect(throws: WebAuthnError.self) {
            _ = try Fixtures.authenticate(authenticator, with: relyingParty, stored: stored)
        }
    }

    @Test func notBackupEligibleClearsBEAndBS() throws {
        let relyingParty = Fixtures.relyingParty()
        let authenticator = Fixtures.authenticator(
            AuthenticatorConfiguration(backupEligible: false, backupState: true, origin: .web(Fixtures.webOrigin)))
        let (_, verified) = try Fixtures.register(authenticator, with: relyingParty)
        #expect(!verified.backupEligible && !verified.backupState)
        let (assertion, authenticated) = try Fixtures.authenticate(
            authenticator, with: relyingParty, stored: Fixtures.stored(verified))
        #expect(!assertion.authenticatorData.flags.contains(.backupState))
        #expect(!authenticated.backupEligible && !authenticated.backupState)
    }

    @Test func eligibleButNotBackedUp() throws {
        let relyingParty = Fixtures.relyingParty()
        let authenticator = Fixtures.authenticator(
            AuthenticatorConfiguration(backupState: false, origin: .web(Fixtures.webOrigin)))
        let (_, verified) = try Fixtures.register(authenticator, with: relyingParty)
        #expect(verified.backupEligible && !verified.backupState)
    }

    @Test func neverVerifyingFailsARequiredPolicy() throws {
        let authenticator = Fixtures.authenticator(
            AuthenticatorConfiguration(userVerification: .never, origin: .web(Fixtures.webOrigin)))
        let result = try authenticator.makeCredential(Fixtures.creation(userVerification: .required))
        #expect(!result.authenticatorData.flags.contains(.userVerified))
        let state = RegistrationState(
            challenge: Fixtures.challenge, userHandle: Fixtures.userHandle, userVerification: .required,
            algorithms: [.es256])
        #expect(throws: WebAuthnError(.userVerification, "user verification is required but the UV flag is not set")) {
            _ = try Fixtures.relyingParty().finishRegistration(result.credential, state: state, now: Fixtures.now)
        }
    }

    @Test func unlessDiscouragedFollowsTheRequest() throws {
        let authenticator = Fixtures.authenticator(
            AuthenticatorConfiguration(userVerification: .unlessDiscouraged, origin: .web(Fixtures.webOrigin)))
        let discouraged = try authenticator.makeCredential(
            Fixtures.creation(userHandle: [1], userVerification: .discouraged))
        let preferred = try authenticator.makeCredential(
            Fixtures.creation(userHandle: [2], userVerification: .preferred))
        #expect(!discouraged.authenticatorData.flags.contains(.userVerified))
        #expect(preferred.authenticatorData.flags.contains(.userVerified))
    }

    @Test func withoutUserPresenceThePartyRejects() throws {
        let authenticator = Fixtures.authenticator(
            AuthenticatorConfiguration(userPresence: false, origin: .web(Fixtures.webOrigin)))
        let error = #expect(throws: WebAuthnError.self) {
            _ = try Fixtures.register(authenticator, with: Fixtures.relyingParty())
        }
        #expect(error?.code == .userPresence)
    }

    @Test func credentialIDLengthAndAAGUIDFollowTheConfiguration() throws {
        let aaguid: [UInt8] = Array(repeating: 0x42, count: 16)
        let authenticator = Fixtures.authenticator(
            AuthenticatorConfiguration(aaguid: aaguid, origin: .web(Fixtures.webOrigin), credentialIDLength: .bytes32))
        let (_, verified) = try Fixtures.register(authenticator, with: Fixtures.relyingParty())
        #expect(verified.credentialID.count == 32)
        #expect(verified.aaguid == aaguid)
    }

    @Test func anAAGUIDOfTheWrongLengthIsAConfigurationError() {
        let authenticator = Fixtures.authenticator(AuthenticatorConfiguration(aaguid: [1, 2, 3]))
        #expect(Fixtures.error { _ = try authenticator.makeCredential(Fixtures.creation()) }?.code == .configuration)
    }

    @Test func credentialIDsComeFromTheInjectedRandomSource() throws {
        let first = try Fixtures.authenticator(seed: 99).makeCredential(Fixtures.creation())
        let second = try Fixtures.authenticator(seed: 99).makeCredential(Fixtures.creation())
        let third = try Fixtures.authenticator(seed: 100).makeCredential(Fixtures.creation())
        #expect(first.credential.id == second.credential.id)
        #expect(first.credential.id != third.credential.id)
    }
}

import Foundation
import SesameCrypto
import SesameSoftwareAuthenticator
import Testing
import WebAuthn

/// Registrations and assertions made by the software authenticator pass the relying-party core.
@Suite struct CeremonyRoundTripTests {
    static let algorithms: [COSEAlgorithm] = [.es256, .edDSA, .rs256]
    static let formats: [AuthenticatorConfiguration.AttestationFormat] = [.none, .packed]

    @Test(arguments: algorithms, formats)
    func registersAndAuthenticates(algorithm: COSEAlgorithm, format: AuthenticatorConfiguration.AttestationFormat)
        throws
    {
        let authenticator = Fixtures.authenticator(
            AuthenticatorConfiguration(
                algorithms: [.es256, .edDSA, .rs256], attestation: format, origin: .web(Fixtures.webOrigin)))
        let relyingParty = Fixtures.relyingParty()
        let (registration, verified) = try Fixtures.register(
            authenticator, with: relyingParty, algorithms: [algorithm])

        #expect(verified.publicKey.algorithm == algorithm)
        #expect(verified.attestation.format == format.rawValue)
        #expect(verified.attestation.type == (format == .packed ? AttestationType.`self` : AttestationType.none))
        #expect(verified.aaguid == AuthenticatorConfiguration.sesameAAGUID)
        #expect(verified.credentialID.count == 16)
        #expect(verified.responseIDMatches)
        #expect(verified.transports == ["internal", "hybrid"])
        #expect(registration.storedCredential.id == verified.credentialID)
        #expect(try authenticator.store.credential(id: verified.credentialID) == registration.storedCredential)

        let (assertion, authenticated) = try Fixtures.authenticate(
            authenticator, with: relyingParty, stored: Fixtures.stored(verified))
        #expect(authenticated.credentialID == verified.credentialID)
        #expect(authenticated.userHandle == Fixtures.userHandle)
        #expect(assertion.credential.userHandle == Fixtures.userHandle)
    }

    @Test func picksTheFirstOfferedAlgorithmItSupports() throws {
        let authenticator = Fixtures.authenticator(
            AuthenticatorConfiguration(algorithms: [.es256, .edDSA], origin: .web(Fixtures.webOrigin)))
        // Sesame's server offers EdDSA, ES256, RS256 in that order; PS256 is not supported here.
        let request = Fixtures.creation(algorithms: [.ps256, .edDSA, .es256, .rs256])
        #expect(try authenticator.makeCredential(request).publicKey.algorithm == .edDSA)
    }

    @Test func emptyPubKeyCredParamsMeansES256ThenRS256() throws {
        var request = Fixtures.creation()
        request.pubKeyCredParams = []
        let authenticator = Fixtures.authenticator(
            AuthenticatorConfiguration(algorithms: [.rs256], origin: .web(Fixtures.webOrigin)))
        #expect(try authenticator.makeCredential(request).publicKey.algorithm == .rs256)
    }

    @Test func refusesWhenNoOfferedAlgorithmIsSupported() throws {
        let authenticator = Fixtures.authenticator()
        let error = Fixtures.error { _ = try authenticator.makeCredential(Fixtures.creation(algorithms: [.edDSA])) }
        #expect(error?.code == .notSupported)
        #expect(try authenticator.store.allCredentials().isEmpty)
    }

    @Test func refusesAnExcludedCredentialItHolds() throws {
        let authenticator = Fixtures.authenticator()
        let first = try authenticator.makeCredential(Fixtures.creation())
        let error = Fixtures.error {
            _ = try authenticator.makeCredential(
                Fixtures.creation(userHandle: [1, 2, 3], exclude: [[9, 9, 9], first.credential.id]))
        }
        #expect(error?.code == .invalidState)
        #expect(try authenticator.store.allCredentials() == [first.storedCredential])
    }

    @Test func ignoresAnExcludedCredentialOfAnotherRP() throws {
        let authenticator = Fixtures.authenticator()
        var other = Fixtures.creation()
        other.rpID = "other.example"
        let foreign = try authenticator.makeCredential(other)
        let made = try authenticator.makeCredential(Fixtures.creation(exclude: [foreign.credential.id]))
        #expect(try authenticator.store.allCredentials().count == 2)
        #expect(made.storedCredential.rpID == Fixtures.rpID)
    }

    @Test func replacesTheCredentialOfTheSameUserAndRP() throws {
        let authenticator = Fixtures.authenticator()
        _ = try authenticator.makeCredential(Fixtures.creation())
        let second = try authenticator.makeCredential(Fixtures.creation())
        #expect(try authenticator.store.allCredentials() == [second.storedCredential])
    }

    @Test func rejectsAUserHandleLongerThan64Bytes() {
        let error = Fixtures.error {
            _ = try Fixtures.authenticator().makeCredential(
                Fixtures.creation(userHandle: Array(repeating: 1, count: 65)))
        }
        #expect(error?.code == .invalidOptions)
    }

    @Test func refusesAnAssertionWithNoCredentialForTheRP() throws {
        let authenticator = Fixtures.authenticator()
        var other = Fixtures.creation()
        other.rpID = "other.example"
        _ = try authenticator.makeCredential(other)
        let error = Fixtures.error { _ = try authenticator.getAssertion(Fixtures.assertion()) }
        #expect(error?.code == .notAllowed)
    }

    @Test func refusesAnAssertionWhenNoAllowedCredentialMatches() throws {
        let authenticator = Fixtures.authenticator()
        _ = try authenticator.makeCredential(Fixtures.creation())
        let error = Fixtures.error { _ = try authenticator.getAssertion(Fixtures.assertion(allow: [[1, 2, 3]])) }
        #expect(error?.code == .notAllowed)
    }

    @Test func discoverableLoginUsesTheNewestCredential() throws {
        let clock = Clock()
        let authenticator = SoftwareAuthenticator(
            configuration: AuthenticatorConfiguration(origin: .web(Fixtures.webOrigin)),
            random: DeterministicRandom(seed: 7), now: { clock.tick() })
        let older = try authenticator.makeCredential(Fixtures.creation(userHandle: [1]))
        let newer = try authenticator.makeCredential(Fixtures.creation(userHandle: [2]))
        #expect(older.credential.id != newer.credential.id)
        #expect(try authenticator.getAssertion(Fixtures.assertion()).credential.id == newer.credential.id)
        // allowCredentials picks the listed one even when it is older.
        let allowed = try authenticator.getAssertion(Fixtures.assertion(allow: [older.credential.id]))
        #expect(allowed.credential.id == older.credential.id)
        #expect(allowed.credential.userHandle == [1])
    }

    @Test func aPickerChoosesOrCancels() throws {
        let authenticator = Fixtures.authenticator()
        let ada = try authenticator.makeCredential(Fixtures.creation(userHandle: [1]))
        var second = Fixtures.creation(userHandle: [2])
        second.userName = "grace@example.com"
        _ = try authenticator.makeCredential(second)
        let picked = try authenticator.getAssertion(Fixtures.assertion()) { candidates in
            candidates.first { $0.userName == "ada@example.com" }
        }
        #expect(picked.credential.id == ada.credential.id)
        let error = Fixtures.error { _ = try authenticator.getAssertion(Fixtures.assertion()) { _ in nil } }
        #expect(error?.code == .notAllowed)
    }
}

/// A clock that advances one second per reading.
final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds = 1_750_000_000.0

    func tick() -> Date {
        lock.withLock {
            seconds += 1
            return Date(timeIntervalSince1970: seconds)
        }
    }
}

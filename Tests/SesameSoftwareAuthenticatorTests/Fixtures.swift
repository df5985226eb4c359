import Foundation
import SesameCrypto
import SesameSoftwareAuthenticator
import Testing
import WebAuthn

/// Shared values for the authenticator tests: one relying party and one user.
enum Fixtures {
    static let rpID = "example.com"
    static let webOrigin = "https://example.com"
    static let challenge: [UInt8] = Array(0..<32)
    static let userHandle: [UInt8] = Array(repeating: 0xAB, count: 32)
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    static func relyingParty(
        origins: Set<String> = [webOrigin], userVerification: UserVerificationRequirement = .preferred,
        crossOrigin: CrossOriginPolicy = .reject
    ) -> RelyingParty {
        RelyingParty(
            policy: RelyingPartyPolicy(
                rpID: rpID, allowedOrigins: origins, userVerification: userVerification, crossOrigin: crossOrigin))
    }

    static func authenticator(
        _ configuration: AuthenticatorConfiguration = AuthenticatorConfiguration(origin: .web(webOrigin)),
        store: any CredentialStore = InMemoryCredentialStore(), seed: UInt64 = 1
    ) -> SoftwareAuthenticator {
        SoftwareAuthenticator(
            configuration: configuration, store: store, random: DeterministicRandom(seed: seed), now: { now })
    }

    static func creation(
        algorithms: [COSEAlgorithm] = [.es256], userHandle: [UInt8] = userHandle, exclude: [[UInt8]] = [],
        userVerification: UserVerificationRequirement = .preferred
    ) -> CredentialCreationRequest {
        CredentialCreationRequest(
            rpID: rpID, rpName: "Example", userHandle: userHandle, userName: "ada@example.com",
            userDisplayName: "Ada", challenge: challenge, algorithms: algorithms, excludeCredentials: exclude,
            userVerification: userVerification)
    }

    static func assertion(allow: [[UInt8]] = [], challenge: [UInt8] = Array(100..<132)) -> CredentialAssertionRequest {
        CredentialAssertionRequest(rpID: rpID, challenge: challenge, allowCredentials: allow)
    }

    /// Registers through `relyingParty` and returns what the relying party would store.
    static func register(
        _ authenticator: SoftwareAuthenticator, with relyingParty: RelyingParty,
        algorithms: [COSEAlgorithm] = [.es256], userHandle: [UInt8] = userHandle
    ) throws -> (RegistrationResult, VerifiedRegistration) {
        let result = try authenticator.makeCredential(creation(algorithms: algorithms, userHandle: userHandle))
        let state = RegistrationState(
            challenge: challenge, userHandle: userHandle, userVerification: relyingParty.policy.userVerification,
            algorithms: algorithms)
        let verified = try relyingParty.finishRegistration(result.credential, state: state, now: now)
        return (result, verified)
    }

    static func stored(_ verified: VerifiedRegistration, signCount: UInt32? = nil) -> StoredCredential {
        StoredCredential(
            id: verified.credentialID, publicKey: verified.publicKey, signCount: signCount ?? verified.signCount,
            backupEligible: verified.backupEligible, userHandle: userHandle)
    }

    /// Asserts through `relyingParty` against the stored record.
    static func authenticate(
        _ authenticator: SoftwareAuthenticator, with relyingParty: RelyingParty, stored: StoredCredential,
        allow: [[UInt8]] = []
    ) throws -> (AssertionResult, VerifiedAuthentication) {
        let request = assertion(allow: allow)
        let result = try authenticator.getAssertion(request)
        let state = AuthenticationState(
            challenge: request.challenge, userVerification: relyingParty.policy.userVerification,
            allowCredentials: allow)
        return (result, try relyingParty.finishAuthentication(result.credential, state: state, stored: stored))
    }

    /// The authenticator error `body` throws, or nil.
    static func error(_ body: () throws -> Void) -> AuthenticatorError? {
        do {
            try body()
            return nil
        } catch let error as AuthenticatorError {
            return error
        } catch {
            return nil
        }
    }
}

import Foundation
import SesameCrypto

/// The WebAuthn relying-party operations: registration (§7.1) and authentication (§7.2) as
/// begin/finish pairs. It stores nothing and reads no clock: the caller keeps the state between
/// begin and finish, and passes `now`.
public struct RelyingParty: Sendable {
    public var policy: RelyingPartyPolicy

    public init(policy: RelyingPartyPolicy) {
        self.policy = policy
    }

    // MARK: Registration

    /// Starts a registration with a challenge the caller drew from its random source (at least 16 bytes).
    public func beginRegistration(challenge: [UInt8], userHandle: [UInt8]) -> RegistrationState {
        RegistrationState(
            challenge: challenge, userHandle: userHandle, userVerification: policy.userVerification,
            algorithms: policy.allowedAlgorithms)
    }

    /// Verifies a registration response (WebAuthn Level 3 §7.1). Checking that the credential ID
    /// is not already registered (step 26) is the caller's, which owns the store.
    public func finishRegistration(
        _ credential: RegistrationCredential, state: RegistrationState, now: Date
    ) throws(WebAuthnError) -> VerifiedRegistration {
        // Steps 5–10: decode clientDataJSON as UTF-8 and parse it as JSON.
        let clientData = try CollectedClientData(json: credential.clientDataJSON)
        // Steps 11–15: type, challenge, origin, topOrigin.
        try checkClientData(clientData, expectedType: "webauthn.create", challenge: state.challenge)
        // Step 16: hash over the exact bytes received.
        let clientDataHash = Digest.sha256(credential.clientDataJSON)
        // Step 17: decode the attestation object.
        let attestationObject = try AttestationObject(bytes: credential.attestationObject)
        let authenticatorData = attestationObject.authenticatorData
        // Steps 18–22: rpIdHash, UP (not for a ceremony started as conditional, step 19), UV, BE/BS.
        try checkAuthenticatorData(
            authenticatorData, userVerification: state.userVerification,
            requirePresence: state.mediation != .conditional)
        guard let attested = authenticatorData.attestedCredentialData else {
            throw WebAuthnError(.malformed, "authenticator data has no attested credential data (AT flag clear)")
        }
        // Step 23: the credential algorithm must be one of pubKeyCredParams.
        guard state.algorithms.contains(attested.credentialPublicKey.algorithm) else {
            throw WebAuthnError(
                .algorithm,
                "credential algorithm \(attested.credentialPublicKey.algorithm.name) was not offered in pubKeyCredParams"
            )
        }
        // Step 23 (continued): the key must be usable, or the account could never sign in. Importing
        // it checks that an EC point is on its curve (and not the identity), and that an RSA key
        // has 2048 to 8192 bits and an odd exponent of at least 3 (PublicKey(components:)). A
        // `none` attestation would otherwise store whatever the client sent.
        do {
            _ = try attested.credentialPublicKey.publicKey()
        } catch {
            throw WebAuthnError(.malformed, "the credential public key is not usable: \(error.message)")
        }
        // Step 24: client extension outputs are not requested by this relying party, so none are checked.
        // Steps 25–27: determine the format and verify the statement; assess trust (§6.5.4).
        let formatResult = try AttestationFormats.verify(
            format: attestationObject.format,
            AttestationInput(
                statement: attestationObject.statement, authenticatorData: authenticatorData,
                clientDataHash: clientDataHash, now: now, policy: policy.attestation))
        // The authenticator's metadata roots, when the policy holds any for it.
        let attestation = try AttestationChain.checkMetadata(
            formatResult, aaguid: attested.aaguid, policy: policy.attestation, now: now)
        // Step 28: credential IDs are at most 1023 bytes.
        guard attested.credentialID.count <= 1023 else {
            throw WebAuthnError(.credentialID, "credential ID is longer than 1023 bytes")
        }
        // The credential ID is the one the authenticator attested, which it will present in every
        // assertion. Some early iOS releases sent a different rawId; that is reported, not fatal.
        return VerifiedRegistration(
            credentialID: attested.credentialID, publicKey: attested.credentialPublicKey,
            signCount: authenticatorData.signCount, aaguid: attested.aaguid,
            userVerified: authenticatorData.flags.contains(.userVerified),
            backupEligible: authenticatorData.flags.contains(.backupEligible),
            backupState: authenticatorData.flags.contains(.backupState), transports: credential.transports,
            attestation: attestation, authenticatorData: authenticatorData, clientData: clientData,
            responseIDMatches: attested.credentialID == credential.id)
    }

    // MARK: Authentication

    /// Starts an authentication; `allowCredentials` empty means discoverable credentials.
    public func beginAuthentication(challenge: [UInt8], allowCredentials: [[UInt8]] = []) -> AuthenticationState {
        AuthenticationState(
            challenge: challenge, userVerification: policy.userVerification, allowCredentials: allowCredentials)
    }

    /// Verifies an assertion (WebAuthn Level 3 §7.2) against the stored credential record the
    /// caller looked up by `credential.id`.
    public func finishAuthentication(
        _ credential: AuthenticationCredential, state: AuthenticationState, stored: StoredCredential
    ) throws(WebAuthnError) -> VerifiedAuthentication {
        // Step 5: when allowCredentials was sent, the credential must be one of them.
        if !state.allowCredentials.isEmpty, !state.allowCredentials.contains(credential.id) {
            throw WebAuthnError(.credentialID, "credential was not in allowCredentials")
        }
        // Step 6: the credential must belong to the user; the caller looked it up by id.
        guard credential.id == stored.id else {
            throw WebAuthnError(.credentialID, "credential ID does not match the stored credential")
        }
        if let userHandle = credential.userHandle, let owner = stored.userHandle, userHandle != owner {
            throw WebAuthnError(.credentialID, "userHandle does not match the credential's owner")
        }
        // Steps 8–11: parse client data.
        let clientData = try CollectedClientData(json: credential.clientDataJSON)
        // Steps 12–15: type, challenge, origin, topOrigin.
        try checkClientData(clientData, expectedType: "webauthn.get", challenge: state.challenge)
        let authenticatorData = try AuthenticatorData(bytes: credential.authenticatorData)
        // Steps 16–19: rpIdHash, UP, UV, BE/BS.
        try checkAuthenticatorData(authenticatorData, userVerification: state.userVerification)
        let backupEligible = authenticatorData.flags.contains(.backupEligible)
        // Step 19 (§6.1.3): BE is fixed at creation; a change means a different or tampered authenticator.
        if let registered = stored.backupEligible, registered != backupEligible {
            throw WebAuthnError(.backupState, "backup eligibility changed since registration")
        }
        // Step 20: no extensions are requested, so none are checked.
        // Steps 21–22: the signature over authenticatorData ‖ SHA-256(clientDataJSON).
        let key: PublicKey
        if let imported = stored.importedKey {
            key = imported
        } else {
            key = try stored.publicKey.publicKey()
        }
        var signed = authenticatorData.raw
        signed.append(contentsOf: Digest.sha256(credential.clientDataJSON))
        let valid: Bool
        do {
            valid = try key.isValidSignature(
                credential.signature, for: signed, algorithm: stored.publicKey.algorithm.signatureAlgorithm)
        } catch {
            throw WebAuthnError(.signature, "stored key cannot verify \(stored.publicKey.algorithm.name): \(error)")
        }
        guard valid else { throw WebAuthnError(.signature, "assertion signature is not valid") }
        // Step 23: a non-zero counter must advance; otherwise the authenticator may be cloned.
        var signCount = authenticatorData.signCount
        var regressed = false
        if authenticatorData.signCount != 0 || stored.signCount != 0, authenticatorData.signCount <= stored.signCount {
            switch policy.counter {
            case .reject:
                throw WebAuthnError(
                    .signCount,
                    "signature counter \(authenticatorData.signCount) did not advance past \(stored.signCount)")
            case .flag:
                regressed = true
                signCount = stored.signCount
            }
        }
        return VerifiedAuthentication(
            credentialID: credential.id, signCount: signCount,
            userVerified: authenticatorData.flags.contains(.userVerified), backupEligible: backupEligible,
            backupState: authenticatorData.flags.contains(.backupState), counterRegressed: regressed,
            userHandle: credential.userHandle, authenticatorData: authenticatorData, clientData: clientData)
    }

    // MARK: Shared steps

    /// §7.1 steps 11–15 / §7.2 steps 12–15.
    func checkClientData(_ clientData: CollectedClientData, expectedType: String, challenge: [UInt8])
        throws(WebAuthnError)
    {
        guard clientData.type == expectedType else {
            throw WebAuthnError(.type, "clientData.type is \"\(clientData.type)\", expected \"\(expectedType)\"")
        }
        guard constantTimeEquals(clientData.challenge, challenge) else {
            throw WebAuthnError(.challenge, "clientData.challenge does not match the challenge issued")
        }
        guard policy.allowedOrigins.contains(clientData.origin) else {
            throw WebAuthnError(.origin, "clientData.origin \"\(clientData.origin)\" is not an allowed origin")
        }
        if clientData.crossOrigin == true {
            switch policy.crossOrigin {
            case .reject:
                throw WebAuthnError(.crossOrigin, "cross-origin ceremonies are not allowed")
            case .allow(let topOrigins):
                if let topOrigins {
                    guard let top = clientData.topOrigin, topOrigins.contains(top) else {
                        throw WebAuthnError(.topOrigin, "clientData.topOrigin is not an allowed top-level origin")
                    }
                }
            }
        } else if clientData.topOrigin != nil {
            // A topOrigin is only meaningful, and only sent, for cross-origin ceremonies.
            throw WebAuthnError(.topOrigin, "clientData.topOrigin is present but crossOrigin is not true")
        }
        // WebAuthn Level 2 step: a tokenBinding object, when sent, must say present or supported.
        if let status = clientData.tokenBindingStatus, status != "present", status != "supported" {
            throw WebAuthnError(
                .tokenBinding, "clientData.tokenBinding.status \"\(status)\" is not present or supported")
        }
    }

    /// §7.1 steps 18–22 / §7.2 steps 16–19.
    func checkAuthenticatorData(
        _ authenticatorData: AuthenticatorData, userVerification: UserVerificationRequirement,
        requirePresence: Bool = true
    ) throws(WebAuthnError) {
        guard constantTimeEquals(authenticatorData.rpIDHash, Digest.sha256(Array(policy.rpID.utf8))) else {
            throw WebAuthnError(.rpID, "rpIdHash is not the SHA-256 of the RP ID \"\(policy.rpID)\"")
        }
        if policy.requireUserPresence, requirePresence, !authenticatorData.flags.contains(.userPresent) {
            throw WebAuthnError(.userPresence, "the user-present (UP) flag is not set")
        }
        if userVerification == .required || policy.userVerification == .required,
            !authenticatorData.flags.contains(.userVerified)
        {
            throw WebAuthnError(.userVerification, "user verification is required but the UV flag is not set")
        }
        // §6.1.3: a credential that is not backup eligible cannot be backed up.
        if authenticatorData.flags.contains(.backupState), !authenticatorData.flags.contains(.backupEligible) {
            throw WebAuthnError(.backupState, "the BS flag is set without BE")
        }
    }
}

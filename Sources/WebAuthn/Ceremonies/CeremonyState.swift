import Foundation
import SesameCrypto

/// What `beginRegistration` hands the caller to store until the response arrives.
public struct RegistrationState: Sendable, Hashable, Codable {
    /// The challenge sent in the creation options.
    public var challenge: [UInt8]
    /// The user handle the new credential is for.
    public var userHandle: [UInt8]
    /// User verification asked for in the options.
    public var userVerification: UserVerificationRequirement
    /// The `pubKeyCredParams` offered, in preference order.
    public var algorithms: [COSEAlgorithm]
    /// How the relying party asked the client to create it; nil for the usual modal ceremony.
    public var mediation: RegistrationMediation?

    public init(
        challenge: [UInt8], userHandle: [UInt8], userVerification: UserVerificationRequirement,
        algorithms: [COSEAlgorithm], mediation: RegistrationMediation? = nil
    ) {
        self.challenge = challenge
        self.userHandle = userHandle
        self.userVerification = userVerification
        self.algorithms = algorithms
        self.mediation = mediation
    }
}

/// `CredentialCreationOptions.mediation` (Credential Management; WebAuthn L3 §5.1.3).
public enum RegistrationMediation: String, Sendable, Hashable, Codable {
    /// A conditional create: the client's password manager makes the passkey on its own after a
    /// password sign-in, with no gesture, so the UP flag may be clear (WebAuthn L3 §7.1 step 19).
    case conditional
}

/// What `beginAuthentication` hands the caller to store until the assertion arrives.
public struct AuthenticationState: Sendable, Hashable, Codable {
    public var challenge: [UInt8]
    public var userVerification: UserVerificationRequirement
    /// Credential IDs offered in `allowCredentials`; empty for discoverable-credential login.
    public var allowCredentials: [[UInt8]]

    public init(challenge: [UInt8], userVerification: UserVerificationRequirement, allowCredentials: [[UInt8]] = []) {
        self.challenge = challenge
        self.userVerification = userVerification
        self.allowCredentials = allowCredentials
    }
}

/// The credential record the relying party stored at registration (§7.1 step 27) and reads back
/// for each assertion.
public struct StoredCredential: Sendable {
    public var id: [UInt8]
    public var publicKey: COSEKey
    /// A key already imported from `publicKey` (a cache); imported on demand when nil.
    public var importedKey: PublicKey?
    public var signCount: UInt32
    /// BE at registration; nil when unknown (then the BE-change rule cannot be applied).
    public var backupEligible: Bool?
    /// The user handle of the account the credential belongs to, when known.
    public var userHandle: [UInt8]?

    public init(
        id: [UInt8], publicKey: COSEKey, importedKey: PublicKey? = nil, signCount: UInt32,
        backupEligible: Bool?, userHandle: [UInt8]? = nil
    ) {
        self.id = id
        self.publicKey = publicKey
        self.importedKey = importedKey
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.userHandle = userHandle
    }
}

/// A verified registration: everything the relying party stores as the credential record.
public struct VerifiedRegistration: Sendable {
    public var credentialID: [UInt8]
    public var publicKey: COSEKey
    public var signCount: UInt32
    public var aaguid: [UInt8]
    public var userVerified: Bool
    public var backupEligible: Bool
    public var backupState: Bool
    public var transports: [String]
    public var attestation: AttestationResult
    public var authenticatorData: AuthenticatorData
    public var clientData: CollectedClientData
    /// Whether the response's rawId equals the attested credential ID (false for some early iOS builds).
    public var responseIDMatches: Bool
}

/// A verified assertion: the new counter and flags to store.
public struct VerifiedAuthentication: Sendable {
    public var credentialID: [UInt8]
    /// The counter to store (the asserted one, or the stored one when it did not advance).
    public var signCount: UInt32
    public var userVerified: Bool
    public var backupEligible: Bool
    public var backupState: Bool
    /// The counter did not advance and policy was `.flag`: the authenticator may be cloned.
    public var counterRegressed: Bool
    public var userHandle: [UInt8]?
    public var authenticatorData: AuthenticatorData
    public var clientData: CollectedClientData
}

/// Whether the relying party requires user verification (WebAuthn §5.8.6).
public enum UserVerificationRequirement: String, Sendable, Hashable, Codable {
    case required
    case preferred
    case discouraged
}

/// What to do with `clientDataJSON.crossOrigin: true` (a ceremony run in a cross-origin iframe).
public enum CrossOriginPolicy: Sendable, Hashable {
    /// Reject cross-origin ceremonies (the default: native apps and first-party pages never need them).
    case reject
    /// Accept them; when `topOrigins` is non-nil, `topOrigin` must be present and one of these.
    case allow(topOrigins: Set<String>?)
}

/// What to do when a non-zero signature counter does not advance (a possible cloned authenticator).
public enum CounterPolicy: Sendable, Hashable {
    /// Fail the ceremony (the default).
    case reject
    /// Accept it but report `counterRegressed` in the result so the caller can flag the credential.
    case flag
}

/// The relying party's rules for verifying registrations and assertions.
public struct RelyingPartyPolicy: Sendable {
    /// The RP ID: a registrable domain suffix of the origins, e.g. "example.com".
    public var rpID: String
    /// Exact origins accepted in `clientDataJSON.origin`: web origins ("https://login.example.com")
    /// and Android app origins ("android:apk-key-hash:<base64url sha256 of the signing cert>").
    public var allowedOrigins: Set<String>
    /// Whether user verification is required, preferred or discouraged.
    public var userVerification: UserVerificationRequirement
    /// Whether the UP flag must be set. Only conformance tests for old recordings turn this off.
    public var requireUserPresence: Bool
    /// Credential algorithms accepted at registration (the `pubKeyCredParams` offered).
    public var allowedAlgorithms: [COSEAlgorithm]
    /// Cross-origin ceremonies.
    public var crossOrigin: CrossOriginPolicy
    /// Non-advancing counters.
    public var counter: CounterPolicy
    /// Attestation statements and trust anchors.
    public var attestation: AttestationPolicy

    /// Every credential algorithm the core supports except RS1, which is legacy attestation only.
    public static let defaultAlgorithms: [COSEAlgorithm] = [
        .edDSA, .es256, .es384, .es512, .ps256, .ps384, .ps512, .rs256, .rs384, .rs512,
    ]

    public init(
        rpID: String, allowedOrigins: Set<String>, userVerification: UserVerificationRequirement = .preferred,
        requireUserPresence: Bool = true, allowedAlgorithms: [COSEAlgorithm] = RelyingPartyPolicy.defaultAlgorithms,
        crossOrigin: CrossOriginPolicy = .reject, counter: CounterPolicy = .reject,
        attestation: AttestationPolicy = AttestationPolicy()
    ) {
        self.rpID = rpID
        self.allowedOrigins = allowedOrigins
        self.userVerification = userVerification
        self.requireUserPresence = requireUserPresence
        self.allowedAlgorithms = allowedAlgorithms
        self.crossOrigin = crossOrigin
        self.counter = counter
        self.attestation = attestation
    }
}

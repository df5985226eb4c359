import WebAuthn

/// What `navigator.credentials.create({publicKey})` passes to an authenticator: the parts of
/// `PublicKeyCredentialCreationOptions` the software authenticator uses, as plain values.
public struct CredentialCreationRequest: Sendable, Hashable {
    /// `rp.id`.
    public var rpID: String
    /// `rp.name` (informational).
    public var rpName: String?
    /// `user.id`: 1–64 bytes.
    public var userHandle: [UInt8]
    /// `user.name`.
    public var userName: String
    /// `user.displayName`.
    public var userDisplayName: String
    /// The challenge, written base64url into clientDataJSON.
    public var challenge: [UInt8]
    /// The `alg` of each `pubKeyCredParams` entry of type "public-key", in the relying party's
    /// order of preference. Unknown identifiers are kept (and skipped). Empty means the WebAuthn
    /// default, ES256 then RS256 (§5.1.3 step 11).
    public var pubKeyCredParams: [Int]
    /// The `id` of each `excludeCredentials` entry.
    public var excludeCredentials: [[UInt8]]
    /// `authenticatorSelection.residentKey`. Every credential this authenticator makes is
    /// discoverable, so this is recorded but does not change the outcome.
    public var residentKey: ResidentKeyRequirement
    /// `authenticatorSelection.userVerification`.
    public var userVerification: UserVerificationRequirement

    /// A request with algorithms given as raw COSE identifiers.
    public init(
        rpID: String, rpName: String? = nil, userHandle: [UInt8], userName: String, userDisplayName: String,
        challenge: [UInt8], pubKeyCredParams: [Int], excludeCredentials: [[UInt8]] = [],
        residentKey: ResidentKeyRequirement = .required, userVerification: UserVerificationRequirement = .preferred
    ) {
        self.rpID = rpID
        self.rpName = rpName
        self.userHandle = userHandle
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.excludeCredentials = excludeCredentials
        self.residentKey = residentKey
        self.userVerification = userVerification
    }

    /// A request with algorithms given as `COSEAlgorithm`s (ES256 by default).
    public init(
        rpID: String, rpName: String? = nil, userHandle: [UInt8], userName: String, userDisplayName: String,
        challenge: [UInt8], algorithms: [COSEAlgorithm] = [.es256], excludeCredentials: [[UInt8]] = [],
        residentKey: ResidentKeyRequirement = .required, userVerification: UserVerificationRequirement = .preferred
    ) {
        self.init(
            rpID: rpID, rpName: rpName, userHandle: userHandle, userName: userName, userDisplayName: userDisplayName,
            challenge: challenge, pubKeyCredParams: algorithms.map(\.rawValue),
            excludeCredentials: excludeCredentials, residentKey: residentKey, userVerification: userVerification)
    }

    /// `authenticatorSelection.residentKey` (WebAuthn §5.4.6).
    public enum ResidentKeyRequirement: String, Sendable, Hashable {
        /// A server-side credential is preferred.
        case discouraged
        /// A discoverable credential is preferred.
        case preferred
        /// A discoverable credential is required.
        case required
    }
}

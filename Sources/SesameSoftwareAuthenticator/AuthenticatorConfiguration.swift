import WebAuthn

/// How a `SoftwareAuthenticator` behaves: which model it claims to be, which keys it makes, which
/// flags and counters it reports, and which origin it writes into clientDataJSON.
///
/// The defaults imitate a synced platform passkey (iCloud Keychain, Google Password Manager):
/// ES256 keys, `none` attestation, UP and UV set, BE=1 BS=1, a counter that stays 0.
public struct AuthenticatorConfiguration: Sendable, Hashable {
    /// Sesame's software authenticator AAGUID, 5c888366-4806-4874-9de7-87bca8539807 (a random
    /// version-4 UUID picked once for this project; relying parties can recognise test passkeys by it).
    public static let sesameAAGUID: [UInt8] = [
        0x5c, 0x88, 0x83, 0x66, 0x48, 0x06, 0x48, 0x74, 0x9d, 0xe7, 0x87, 0xbc, 0xa8, 0x53, 0x98, 0x07,
    ]

    /// The 16-byte AAGUID written into attested credential data.
    public var aaguid: [UInt8]
    /// The algorithms this authenticator can make keys for. At registration the first algorithm in
    /// the relying party's `pubKeyCredParams` order that is in this list is used (WebAuthn §5.4.3:
    /// the relying party's order is its preference). RS1 is never used.
    public var algorithms: [COSEAlgorithm]
    /// The attestation statement format for registrations.
    public var attestation: AttestationFormat
    /// Whether UP is set. Real authenticators always set it; turn it off only to test a relying party.
    public var userPresence: Bool
    /// When UV is set.
    public var userVerification: UserVerification
    /// BE: whether new credentials are backup eligible (fixed per credential at creation).
    public var backupEligible: Bool
    /// BS: whether credentials are reported as backed up (only ever set when the credential is BE).
    public var backupState: Bool
    /// What the signature counter does.
    public var signCounter: SignCounter
    /// The origin reported in clientDataJSON; nil reports "https://<rpId>" of each request.
    public var origin: Origin?
    /// `clientDataJSON.crossOrigin` (always written, false by default, as Chrome does).
    public var crossOrigin: Bool
    /// `clientDataJSON.topOrigin`, written after `crossOrigin` when non-nil.
    public var topOrigin: String?
    /// Length of the random credential IDs.
    public var credentialIDLength: CredentialIDLength
    /// `response.transports` in the registration JSON.
    public var transports: [String]
    /// `authenticatorAttachment` in the credential JSON ("platform" or "cross-platform").
    public var authenticatorAttachment: String
    /// With `packed`: full (basic) attestation by this key and certificate path instead of self
    /// attestation (tests give it a certificate from their own CA).
    public var attestationIdentity: AttestationIdentity?

    /// A configuration; every parameter defaults to the synced-passkey behaviour described above.
    public init(
        aaguid: [UInt8] = AuthenticatorConfiguration.sesameAAGUID, algorithms: [COSEAlgorithm] = [.es256],
        attestation: AttestationFormat = .none, userPresence: Bool = true, userVerification: UserVerification = .always,
        backupEligible: Bool = true, backupState: Bool = true, signCounter: SignCounter = .zero, origin: Origin? = nil,
        crossOrigin: Bool = false, topOrigin: String? = nil, credentialIDLength: CredentialIDLength = .bytes16,
        transports: [String] = ["internal", "hybrid"], authenticatorAttachment: String = "platform"
    ) {
        self.aaguid = aaguid
        self.algorithms = algorithms
        self.attestation = attestation
        self.userPresence = userPresence
        self.userVerification = userVerification
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.signCounter = signCounter
        self.origin = origin
        self.crossOrigin = crossOrigin
        self.topOrigin = topOrigin
        self.credentialIDLength = credentialIDLength
        self.transports = transports
        self.authenticatorAttachment = authenticatorAttachment
    }

    /// The key and certificate path of full `packed` attestation.
    public struct AttestationIdentity: Sendable, Hashable {
        /// The attestation private key, PKCS#8 DER.
        public var privateKeyPKCS8: [UInt8]
        /// `x5c`: the attestation certificate (for `privateKeyPKCS8`), then any intermediates, DER.
        public var certificates: [[UInt8]]
        /// The signature algorithm of the attestation key (`alg`).
        public var algorithm: COSEAlgorithm

        public init(privateKeyPKCS8: [UInt8], certificates: [[UInt8]], algorithm: COSEAlgorithm = .es256) {
            self.privateKeyPKCS8 = privateKeyPKCS8
            self.certificates = certificates
            self.algorithm = algorithm
        }
    }

    /// The attestation statement format of registrations.
    public enum AttestationFormat: String, Sendable, Hashable {
        /// `fmt: "none"`, empty `attStmt` (what synced passkeys send).
        case none
        /// `fmt: "packed"`: self attestation (`alg` and `sig` by the credential key, no `x5c`), or
        /// full attestation with `x5c` when `attestationIdentity` is set.
        case packed
    }

    /// When the authenticator reports user verification (UV).
    public enum UserVerification: Sendable, Hashable {
        /// UV on every ceremony, as a platform authenticator with biometrics does.
        case always
        /// UV unless the request says `discouraged`.
        case unlessDiscouraged
        /// Never UV, even when the request requires it (so relying-party tests can see the rejection).
        case never
    }

    /// What the signature counter reports.
    public enum SignCounter: Sendable, Hashable {
        /// Always 0, like synced passkeys.
        case zero
        /// 0 at registration, then one more on each assertion (stored per credential).
        case increment
    }

    /// Length of random credential IDs.
    public enum CredentialIDLength: Int, Sendable, Hashable {
        /// 16 random bytes.
        case bytes16 = 16
        /// 32 random bytes.
        case bytes32 = 32
    }
}

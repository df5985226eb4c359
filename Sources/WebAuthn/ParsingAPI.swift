// PUBLIC SURFACE OF the WebAuthn parsing layer — stubs to be replaced by real implementations
// (one main type per file). Signatures here are the contract the verifier compiles against.
import SesameCrypto

/// Why WebAuthn parsing or verification failed: a stable `code` (matching the conformance
/// vectors' `expect.code` where one applies) plus a human message naming the field or step.
public struct WebAuthnError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Code
    public var message: String
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
    public var description: String { "\(code.rawValue): \(message)" }

    /// Stable error codes.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        case malformed  // structure: CBOR, base64url, JSON, authenticator data, COSE
        case type  // clientData.type
        case challenge
        case origin
        case crossOrigin = "cross_origin"
        case topOrigin = "top_origin"
        case rpID = "rp_id"
        case userPresence = "user_presence"
        case userVerification = "user_verification"
        case backupState = "backup_state"
        case algorithm
        case signature
        case signCount = "sign_count"
        case unsupportedFormat = "unsupported_fmt"
        case attestationStatement = "attestation_statement"
        case trustChain = "trust_chain"
        case aaguidExtension = "aaguid_extension"
        case tokenBinding = "token_binding"
        case safetyNetCTS = "safetynet_cts"
        case safetyNetTimestamp = "safetynet_timestamp"
        case revocation
        case androidKeyAuthorizationList = "android_key_authorization_list"
        case credentialID = "credential_id"
        case attestationPolicy = "attestation_policy"
    }
}

/// base64url (RFC 4648 §5), byte-level. Decoding is strict: padding is accepted only where it
/// belongs, anything outside the alphabet, a bad length or non-zero trailing bits is rejected.
public enum Base64URL {
    public static func encode(_ bytes: [UInt8]) -> String { fatalStub() }
    public static func decode(_ string: String) throws(WebAuthnError) -> [UInt8] { fatalStub() }
    public static func decode(_ utf8: some Collection<UInt8>) throws(WebAuthnError) -> [UInt8] { fatalStub() }
}

/// A decoded CBOR data item (RFC 8949).
public indirect enum CBORValue: Sendable, Hashable {
    case unsigned(UInt64)
    /// The value -1 - n.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// Pairs in the order they were encoded. Duplicate keys are a decoding error.
    case map([CBORMapEntry])
    case tagged(UInt64, CBORValue)
    case bool(Bool)
    case null
    case undefined
    case simple(UInt8)
    case double(Double)

    /// The value for `key` when this is a map.
    public subscript(key: CBORValue) -> CBORValue? { fatalStub() }
    /// Integer keys, as COSE uses them.
    public subscript(intKey key: Int) -> CBORValue? { fatalStub() }
    /// Text keys, as attestation statements use them.
    public subscript(textKey key: String) -> CBORValue? { fatalStub() }
    /// The integer value when it fits in Int64.
    public var intValue: Int64? { fatalStub() }
    public var bytesValue: [UInt8]? { fatalStub() }
    public var textValue: String? { fatalStub() }
    public var arrayValue: [CBORValue]? { fatalStub() }
    public var mapValue: [CBORMapEntry]? { fatalStub() }
}

/// One key/value pair of a CBOR map.
public struct CBORMapEntry: Sendable, Hashable {
    public var key: CBORValue
    public var value: CBORValue
    public init(key: CBORValue, value: CBORValue) { self.key = key; self.value = value }
}

/// Hard limits the decoder enforces; every length is also checked against the bytes that remain.
public struct CBORLimits: Sendable, Hashable {
    public var maxDepth: Int
    public var maxItems: Int
    public var maxLength: Int
    public init(maxDepth: Int = 16, maxItems: Int = 4096, maxLength: Int = 1 << 20) { self.maxDepth = maxDepth; self.maxItems = maxItems; self.maxLength = maxLength }
}

/// A bounded CBOR decoder.
public struct CBORDecoder: Sendable {
    public var limits: CBORLimits
    public init(limits: CBORLimits = CBORLimits()) { self.limits = limits }
    /// Decodes exactly one item; trailing bytes are an error.
    public func decode(_ bytes: [UInt8]) throws(WebAuthnError) -> CBORValue { fatalStub() }
    /// Decodes one item from the start of `bytes` and returns it with the number of bytes used.
    public func decodePrefix(_ bytes: ArraySlice<UInt8>) throws(WebAuthnError) -> (CBORValue, Int) { fatalStub() }
}

/// The CTAP2 canonical CBOR encoder (RFC 8949 §4.2.3 length-first map key order; shortest forms).
public enum CBOREncoder {
    public static func encode(_ value: CBORValue) -> [UInt8] { fatalStub() }
}

/// COSE algorithm identifiers (IANA registry) that the core knows.
public enum COSEAlgorithm: Int, Sendable, Hashable, CaseIterable {
    case es256 = -7
    case es384 = -35
    case es512 = -36
    case edDSA = -8
    case rs256 = -257
    case rs384 = -258
    case rs512 = -259
    case ps256 = -37
    case ps384 = -38
    case ps512 = -39
    /// RSASSA-PKCS1-v1_5 with SHA-1: legacy TPM/packed attestation only, never for credentials by default.
    case rs1 = -65535

    /// Spec name, e.g. "ES256".
    public var name: String { fatalStub() }
    /// The SesameCrypto signature algorithm.
    public var signatureAlgorithm: SignatureAlgorithm { fatalStub() }
}

/// A COSE_Key (RFC 9052/9053) holding a credential public key.
public struct COSEKey: Sendable, Hashable {
    public enum KeyType: Int, Sendable, Hashable { case okp = 1, ec2 = 2, rsa = 3 }
    public var keyType: KeyType
    /// The `alg` (3) parameter; required for WebAuthn credential keys.
    public var algorithm: COSEAlgorithm
    /// The public parameters.
    public var components: PublicKeyComponents
    /// The exact CBOR bytes this key was decoded from (or encoded to).
    public var encoded: [UInt8]

    /// Parses and validates a COSE_Key map (kty/alg/crv consistency, coordinate sizes).
    public init(cbor: CBORValue, encoded: [UInt8]) throws(WebAuthnError) { fatalStub() }
    /// Decodes a COSE_Key from its CBOR bytes (exactly one item).
    public init(bytes: [UInt8]) throws(WebAuthnError) { fatalStub() }
    /// Builds the canonical COSE_Key for a public key (the software authenticator needs it).
    public init(publicKey: PublicKey, algorithm: COSEAlgorithm) throws(WebAuthnError) { fatalStub() }
    /// Imports the key into libcrypto.
    public func publicKey() throws(WebAuthnError) -> PublicKey { fatalStub() }
    /// Curve name for EC2/OKP keys ("P-256", "Ed25519"), nil for RSA.
    public var curveName: String? { fatalStub() }
}

/// Authenticator data flags (WebAuthn §6.1).
public struct AuthenticatorFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let userPresent = AuthenticatorFlags(rawValue: 0x01)
    public static let userVerified = AuthenticatorFlags(rawValue: 0x04)
    public static let backupEligible = AuthenticatorFlags(rawValue: 0x08)
    public static let backupState = AuthenticatorFlags(rawValue: 0x10)
    public static let attestedCredentialData = AuthenticatorFlags(rawValue: 0x40)
    public static let extensionData = AuthenticatorFlags(rawValue: 0x80)
}

/// Attested credential data (WebAuthn §6.5.1).
public struct AttestedCredentialData: Sendable, Hashable {
    public var aaguid: [UInt8]
    public var credentialID: [UInt8]
    public var credentialPublicKey: COSEKey
    public init(aaguid: [UInt8], credentialID: [UInt8], credentialPublicKey: COSEKey) { self.aaguid = aaguid; self.credentialID = credentialID; self.credentialPublicKey = credentialPublicKey }
}

/// Authenticator data (WebAuthn §6.1), parsed strictly: AT/ED flags must match what follows,
/// and no bytes may trail.
public struct AuthenticatorData: Sendable, Hashable {
    public var rpIDHash: [UInt8]
    public var flags: AuthenticatorFlags
    public var signCount: UInt32
    public var attestedCredentialData: AttestedCredentialData?
    public var extensions: CBORValue?
    /// The bytes this was parsed from (signed over in assertions and attestations).
    public var raw: [UInt8]
    public init(bytes: [UInt8]) throws(WebAuthnError) { fatalStub() }
    /// Builds and serialises authenticator data (for the software authenticator and tests).
    public init(rpIDHash: [UInt8], flags: AuthenticatorFlags, signCount: UInt32, attestedCredentialData: AttestedCredentialData?, extensions: CBORValue?) { fatalStub() }
}

/// CollectedClientData (WebAuthn §5.8.1), parsed as JSON; unknown members are ignored.
public struct CollectedClientData: Sendable, Hashable {
    public var type: String
    /// The challenge, base64url-decoded.
    public var challenge: [UInt8]
    public var origin: String
    public var crossOrigin: Bool?
    public var topOrigin: String?
    /// The exact JSON bytes (hashed into the signature).
    public var raw: [UInt8]
    public init(json: [UInt8]) throws(WebAuthnError) { fatalStub() }
}

/// An attestation object (WebAuthn §6.5): fmt, attStmt, authData.
public struct AttestationObject: Sendable, Hashable {
    public var format: String
    public var statement: CBORValue
    public var authenticatorData: AuthenticatorData
    public var raw: [UInt8]
    /// Parses the CBOR map; requires text `fmt`, map `attStmt`, bytes `authData`.
    public init(bytes: [UInt8]) throws(WebAuthnError) { fatalStub() }
}

/// Known passkey providers and authenticators by AAGUID (data, not code).
public enum AAGUIDRegistry {
    /// The provider name for an AAGUID, nil when unknown.
    public static func name(for aaguid: [UInt8]) -> String? { fatalStub() }
    /// Canonical lowercase 8-4-4-4-12 form.
    public static func format(_ aaguid: [UInt8]) -> String { fatalStub() }
}

@inline(never)
func fatalStub(_ function: StaticString = #function) -> Never {
    fatalError("WebAuthn: \(function) is not implemented yet")
}

// PUBLIC SURFACE OF attestation verification — the contract each format verifier implements.
import Foundation
import SesameCrypto

/// The attestation type a statement proved (WebAuthn §6.5.4).
public enum AttestationType: String, Sendable, Hashable {
    case none
    case `self` = "self"
    case basic
    case attCA = "attca"
    case anonCA = "anonca"
}

/// Policy for attestation statements. The default accepts none and self attestation, checks
/// every statement's signature, and chains a certificate path only to roots it is given.
public struct AttestationPolicy: Sendable {
    /// Trust anchors per format ("packed", "tpm", "android-key", "android-safetynet", "apple",
    /// "fido-u2f"). A format with an entry must chain to one of them (an empty list means:
    /// check the statement but skip the chain); a format without one is reported as not chained.
    public var trustAnchors: [String: [X509Certificate]]
    /// Reject SafetyNet responses whose `ctsProfileMatch` is false.
    public var requireSafetyNetCTSProfileMatch: Bool
    /// How old a SafetyNet `timestampMs` may be, and how far in the future, in seconds.
    public var safetyNetMaxAge: TimeInterval
    /// Accept the FIDO conformance TPM vendor id:FFFFF1D0 and ids not in the TCG vendor list.
    public var acceptUnregisteredTPMVendors: Bool
    /// Require an all-zero AAGUID for fido-u2f (the spec does not; some libraries do).
    public var requireZeroAAGUIDForFIDOU2F: Bool
    /// Formats accepted at all; nil means every format the core implements.
    public var allowedFormats: Set<String>?
    /// Attestation roots per authenticator model, from FIDO metadata: a certificate path of a
    /// model listed here must chain to its roots (`AttestationChain.checkMetadata`). The caller
    /// looks them up before the ceremony (`AuthenticatorModel.candidates`); the core does no I/O.
    public var metadataAnchors: [AuthenticatorModel: [X509Certificate]] = [:]

    public init(
        trustAnchors: [String: [X509Certificate]] = [:], requireSafetyNetCTSProfileMatch: Bool = true,
        safetyNetMaxAge: TimeInterval = 60, acceptUnregisteredTPMVendors: Bool = true,
        requireZeroAAGUIDForFIDOU2F: Bool = false, allowedFormats: Set<String>? = nil
    ) {
        self.trustAnchors = trustAnchors
        self.requireSafetyNetCTSProfileMatch = requireSafetyNetCTSProfileMatch
        self.safetyNetMaxAge = safetyNetMaxAge
        self.acceptUnregisteredTPMVendors = acceptUnregisteredTPMVendors
        self.requireZeroAAGUIDForFIDOU2F = requireZeroAAGUIDForFIDOU2F
        self.allowedFormats = allowedFormats
    }
}

/// Everything a format verifier needs; it does no I/O and reads no clock.
public struct AttestationInput: Sendable {
    public var statement: CBORValue
    public var authenticatorData: AuthenticatorData
    /// SHA-256 of the clientDataJSON bytes.
    public var clientDataHash: [UInt8]
    public var now: Date
    public var policy: AttestationPolicy
    public init(
        statement: CBORValue, authenticatorData: AuthenticatorData, clientDataHash: [UInt8], now: Date,
        policy: AttestationPolicy
    ) {
        self.statement = statement; self.authenticatorData = authenticatorData; self.clientDataHash = clientDataHash;
        self.now = now; self.policy = policy
    }
}

/// What a verified attestation statement says.
public struct AttestationResult: Sendable {
    public var format: String
    public var type: AttestationType
    /// The attestation certificates, leaf first, as sent (x5c); empty for none/self.
    public var certificates: [X509Certificate]
    /// True when the path was verified to a configured trust anchor.
    public var chainVerified: Bool
    /// Why the path was not verified (no anchors configured for the format, or none needed).
    public var chainNote: String?
    /// The model whose metadata roots the path verified to (`AttestationPolicy.metadataAnchors`).
    public var metadataModel: AuthenticatorModel?
    public init(
        format: String, type: AttestationType, certificates: [X509Certificate], chainVerified: Bool, chainNote: String?
    ) {
        self.format = format; self.type = type; self.certificates = certificates; self.chainVerified = chainVerified;
        self.chainNote = chainNote
    }
}

/// One attestation statement format (WebAuthn §8).
public protocol AttestationFormatVerifier: Sendable {
    /// The `fmt` identifier, e.g. "packed".
    static var format: String { get }
    /// Verifies the statement per the format's verification procedure; the chain is checked
    /// against `input.policy.trustAnchors[format]` (see `AttestationChain.check`).
    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult
}

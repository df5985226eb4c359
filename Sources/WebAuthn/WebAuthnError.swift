/// An error with a stable, machine-readable `code` and a human message naming the field or step
/// that failed. Comparable in tests; the software authenticator's errors take the same form.
public struct CodedError<Codes: RawRepresentable & Hashable & Sendable>: Error, Equatable, Sendable,
    CustomStringConvertible
where Codes.RawValue == String {
    /// The error's codes (`WebAuthnErrorCode`, `AuthenticatorErrorCode`).
    public typealias Code = Codes

    /// The stable, machine-readable reason.
    public var code: Code
    /// A human-readable explanation naming the field or step that failed.
    public var message: String

    /// Creates an error with a stable code and a message for humans.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// "code: message", for logs and CLI output.
    public var description: String { "\(code.rawValue): \(message)" }
}

/// Why WebAuthn parsing or verification failed: a stable `code` (matching the conformance
/// vectors' `expect.code` where one applies) plus a human message naming the field or step.
public typealias WebAuthnError = CodedError<WebAuthnErrorCode>

/// Stable error codes of `WebAuthnError`.
public enum WebAuthnErrorCode: String, Sendable, Hashable, CaseIterable {
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

/// An attestation object (WebAuthn §6.5): fmt, attStmt, authData.
public struct AttestationObject: Sendable, Hashable {
    /// The attestation statement format identifier, e.g. "packed".
    public var format: String
    /// The format-specific attestation statement (a CBOR map).
    public var statement: CBORValue
    /// The parsed authenticator data.
    public var authenticatorData: AuthenticatorData
    /// The exact CBOR bytes.
    public var raw: [UInt8]

    /// Parses the CBOR map; requires text `fmt`, map `attStmt`, bytes `authData`.
    /// Structural failures throw `.malformed`; members other than these three are ignored.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard !bytes.isEmpty else {
            throw WebAuthnError(.malformed, "attestation object is empty")
        }
        let value: CBORValue
        do {
            value = try CBORDecoder().decode(bytes)
        } catch {
            throw WebAuthnError(.malformed, "attestation object: \(error.message)")
        }
        guard case .map = value else {
            throw WebAuthnError(.malformed, "attestation object is not a CBOR map")
        }
        guard let fmtValue = value[textKey: "fmt"] else {
            throw WebAuthnError(.malformed, "attestation object: fmt is missing")
        }
        guard case .text(let format) = fmtValue else {
            throw WebAuthnError(.malformed, "attestation object: fmt is not a text string")
        }
        guard let statement = value[textKey: "attStmt"] else {
            throw WebAuthnError(.malformed, "attestation object: attStmt is missing")
        }
        guard case .map = statement else {
            throw WebAuthnError(.malformed, "attestation object: attStmt is not a map")
        }
        guard let authDataValue = value[textKey: "authData"] else {
            throw WebAuthnError(.malformed, "attestation object: authData is missing")
        }
        guard case .bytes(let authData) = authDataValue else {
            throw WebAuthnError(.malformed, "attestation object: authData is not a byte string")
        }
        self.format = format
        self.statement = statement
        self.authenticatorData = try AuthenticatorData(bytes: authData)
        self.raw = bytes
    }
}

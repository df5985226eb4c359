/// Authenticator data flags (WebAuthn §6.1).
public struct AuthenticatorFlags: OptionSet, Sendable, Hashable {
    /// The flags byte.
    public let rawValue: UInt8
    /// Wraps a flags byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// UP, bit 0: the user was present.
    public static let userPresent = AuthenticatorFlags(rawValue: 0x01)
    /// UV, bit 2: the user was verified.
    public static let userVerified = AuthenticatorFlags(rawValue: 0x04)
    /// BE, bit 3: the credential may be backed up (synced).
    public static let backupEligible = AuthenticatorFlags(rawValue: 0x08)
    /// BS, bit 4: the credential is currently backed up.
    public static let backupState = AuthenticatorFlags(rawValue: 0x10)
    /// AT, bit 6: attested credential data follows.
    public static let attestedCredentialData = AuthenticatorFlags(rawValue: 0x40)
    /// ED, bit 7: an extensions map follows.
    public static let extensionData = AuthenticatorFlags(rawValue: 0x80)
}

/// Attested credential data (WebAuthn §6.5.1).
public struct AttestedCredentialData: Sendable, Hashable {
    /// The authenticator model's 16-byte AAGUID.
    public var aaguid: [UInt8]
    /// The credential ID (at most 1023 bytes).
    public var credentialID: [UInt8]
    /// The credential public key.
    public var credentialPublicKey: COSEKey

    /// Groups the parts of attested credential data.
    public init(aaguid: [UInt8], credentialID: [UInt8], credentialPublicKey: COSEKey) {
        self.aaguid = aaguid
        self.credentialID = credentialID
        self.credentialPublicKey = credentialPublicKey
    }
}

/// Authenticator data (WebAuthn §6.1), parsed strictly: AT/ED flags must match what follows,
/// and no bytes may trail.
public struct AuthenticatorData: Sendable, Hashable {
    /// SHA-256 of the RP ID the credential is scoped to.
    public var rpIDHash: [UInt8]
    /// The flags byte.
    public var flags: AuthenticatorFlags
    /// The signature counter (0 when the authenticator does not keep one).
    public var signCount: UInt32
    /// Present exactly when the AT flag is set.
    public var attestedCredentialData: AttestedCredentialData?
    /// The extension outputs map, present exactly when the ED flag is set.
    public var extensions: CBORValue?
    /// The bytes this was parsed from (signed over in assertions and attestations).
    public var raw: [UInt8]

    /// Longest credential ID WebAuthn allows (§5.8.3 / §6.5.1).
    public static let maxCredentialIDLength = 1023

    /// Parses authenticator data. Every structural problem throws `.malformed`, except a credential
    /// public key with an unsupported algorithm, which throws `.algorithm`.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        // §6.1: rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian).
        guard bytes.count >= 37 else {
            throw Self.malformed("is \(bytes.count) bytes; the fixed header needs 37")
        }
        let flags = AuthenticatorFlags(rawValue: bytes[32])
        var counter: UInt32 = 0
        for index in 33..<37 {
            counter = counter << 8 | UInt32(bytes[index])
        }
        var position = 37
        var attested: AttestedCredentialData?
        if flags.contains(.attestedCredentialData) {
            // §6.5.1: aaguid (16) ‖ credentialIdLength (2) ‖ credentialId ‖ credentialPublicKey.
            guard bytes.count - position >= 18 else {
                throw Self.malformed(
                    "AT flag is set but only \(bytes.count - position) bytes follow the header; "
                        + "AAGUID and credential ID length need 18")
            }
            let aaguid = Array(bytes[position..<position + 16])
            let idLength = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard idLength <= Self.maxCredentialIDLength else {
                throw Self.malformed("credential ID length \(idLength) exceeds \(Self.maxCredentialIDLength)")
            }
            guard bytes.count - position >= idLength else {
                throw Self.malformed(
                    "credential ID length is \(idLength) but only \(bytes.count - position) bytes remain")
            }
            let credentialID = Array(bytes[position..<position + idLength])
            position += idLength
            guard position < bytes.count else {
                throw Self.malformed("credential public key is missing")
            }
            let key: COSEKey
            do {
                let (value, used) = try CBORDecoder().decodePrefix(bytes[position...])
                key = try COSEKey(cbor: value, encoded: Array(bytes[position..<position + used]))
                position += used
            } catch {
                throw WebAuthnError(error.code, "authenticator data: credential public key: \(error.message)")
            }
            attested = AttestedCredentialData(aaguid: aaguid, credentialID: credentialID, credentialPublicKey: key)
        }
        var extensions: CBORValue?
        if flags.contains(.extensionData) {
            guard position < bytes.count else {
                throw Self.malformed("ED flag is set but no extension data follows")
            }
            let value: CBORValue
            let used: Int
            do {
                (value, used) = try CBORDecoder().decodePrefix(bytes[position...])
            } catch {
                throw Self.malformed("extensions: \(error.message)")
            }
            guard case .map = value else { throw Self.malformed("extensions are not a CBOR map") }
            position += used
            extensions = value
        }
        if position != bytes.count {
            let what =
                flags.contains(.extensionData)
                ? "after the extensions"
                : flags.contains(.attestedCredentialData)
                    ? "after the credential public key (ED flag is clear)"
                    : "after the header (AT and ED flags are clear)"
            throw Self.malformed("\(bytes.count - position) unexpected bytes \(what)")
        }
        self.rpIDHash = Array(bytes[0..<32])
        self.flags = flags
        self.signCount = counter
        self.attestedCredentialData = attested
        self.extensions = extensions
        self.raw = bytes
    }

    /// Builds and serialises authenticator data (for the software authenticator and tests).
    ///
    /// The flags are written exactly as given; set `.attestedCredentialData` and `.extensionData`
    /// to match the optional parts, or the result will not parse.
    public init(
        rpIDHash: [UInt8], flags: AuthenticatorFlags, signCount: UInt32,
        attestedCredentialData: AttestedCredentialData?, extensions: CBORValue?
    ) {
        var raw = rpIDHash
        raw.append(flags.rawValue)
        raw.append(UInt8(truncatingIfNeeded: signCount >> 24))
        raw.append(UInt8(truncatingIfNeeded: signCount >> 16))
        raw.append(UInt8(truncatingIfNeeded: signCount >> 8))
        raw.append(UInt8(truncatingIfNeeded: signCount))
        if let attested = attestedCredentialData {
            raw.append(contentsOf: attested.aaguid)
            let length = attested.credentialID.count
            raw.append(UInt8(truncatingIfNeeded: length >> 8))
            raw.append(UInt8(truncatingIfNeeded: length))
            raw.append(contentsOf: attested.credentialID)
            raw.append(contentsOf: attested.credentialPublicKey.encoded)
        }
        if let extensions {
            raw.append(contentsOf: CBOREncoder.encode(extensions))
        }
        self.rpIDHash = rpIDHash
        self.flags = flags
        self.signCount = signCount
        self.attestedCredentialData = attestedCredentialData
        self.extensions = extensions
        self.raw = raw
    }

    private static func malformed(_ message: String) -> WebAuthnError {
        WebAuthnError(.malformed, "authenticator data: \(message)")
    }
}

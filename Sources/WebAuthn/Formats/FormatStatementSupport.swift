import Foundation
import SesameCrypto

/// Field reading, signature and key checks shared by the attestation statement verifiers, so
/// each reports a missing or mistyped member, a bad signature and a key mismatch the same way.
enum FormatStatementSupport {
    /// `attStmt.alg` as a COSE algorithm the core knows.
    static func algorithm(_ statement: CBORValue, format: String) throws(WebAuthnError) -> COSEAlgorithm {
        guard let value = statement[textKey: "alg"] else {
            throw WebAuthnError(.attestationStatement, "\(format): alg is missing")
        }
        guard let raw = value.intValue else {
            throw WebAuthnError(.attestationStatement, "\(format): alg is not an integer")
        }
        guard let small = Int(exactly: raw), let algorithm = COSEAlgorithm(rawValue: small) else {
            throw WebAuthnError(.algorithm, "\(format): alg \(raw) is not a supported COSE algorithm")
        }
        return algorithm
    }

    /// A required byte-string member such as `sig`, `certInfo` or `response`.
    static func bytes(_ statement: CBORValue, _ key: String, format: String) throws(WebAuthnError) -> [UInt8] {
        guard let value = statement[textKey: key] else {
            throw WebAuthnError(.attestationStatement, "\(format): \(key) is missing")
        }
        guard let bytes = value.bytesValue else {
            throw WebAuthnError(.attestationStatement, "\(format): \(key) is not a byte string")
        }
        return bytes
    }

    /// A required text member such as `ver`.
    static func text(_ statement: CBORValue, _ key: String, format: String) throws(WebAuthnError) -> String {
        guard let value = statement[textKey: key] else {
            throw WebAuthnError(.attestationStatement, "\(format): \(key) is missing")
        }
        guard let text = value.textValue else {
            throw WebAuthnError(.attestationStatement, "\(format): \(key) is not a text string")
        }
        return text
    }

    /// The attested credential data a registration's authenticator data must carry.
    static func attestedCredential(_ input: AttestationInput, format: String) throws(WebAuthnError)
        -> AttestedCredentialData
    {
        guard let attested = input.authenticatorData.attestedCredentialData else {
            throw WebAuthnError(.attestationStatement, "\(format): authenticator data has no attested credential data")
        }
        return attested
    }

    /// The hash the statement's `alg` signs with (TPM extraData is computed with it).
    static func hash(for algorithm: COSEAlgorithm) -> HashAlgorithm? {
        switch algorithm {
        case .rs1: return .legacySHA1
        case .es256, .rs256, .ps256: return .sha256
        case .es384, .rs384, .ps384: return .sha384
        case .es512, .rs512, .ps512: return .sha512
        case .edDSA: return nil
        }
    }

    /// Verifies `signature` over `message` with a certificate key: a wrong signature is
    /// `.signature`; an algorithm that does not fit the key is `.attestationStatement`.
    static func verifySignature(
        _ signature: [UInt8], over message: [UInt8], key: PublicKey, algorithm: SignatureAlgorithm,
        encoding: ECDSASignatureFormat = .der, format: String, what: String
    ) throws(WebAuthnError) {
        let valid: Bool
        do {
            valid = try key.isValidSignature(signature, for: message, algorithm: algorithm, format: encoding)
        } catch {
            throw WebAuthnError(.attestationStatement, "\(format): \(what) cannot be checked with that key: \(error)")
        }
        guard valid else {
            throw WebAuthnError(.signature, "\(format): \(what) does not verify")
        }
    }

    /// The subject public key of a certificate.
    static func publicKey(of certificate: X509Certificate, format: String) throws(WebAuthnError) -> PublicKey {
        do {
            return try certificate.publicKey()
        } catch {
            throw WebAuthnError(.attestationStatement, "\(format): attestation certificate key is unusable: \(error)")
        }
    }

    /// Whether two public keys are the same key: RSA integers and EC coordinates compared as
    /// numbers (leading zero bytes do not matter); curves and key types must agree.
    static func sameKey(_ a: PublicKeyComponents, _ b: PublicKeyComponents) -> Bool {
        switch (a, b) {
        case (.rsa(let n1, let e1), .rsa(let n2, let e2)):
            return stripped(n1) == stripped(n2) && stripped(e1) == stripped(e2)
        case (.ec(let c1, let x1, let y1), .ec(let c2, let x2, let y2)):
            return c1 == c2 && stripped(x1) == stripped(x2) && stripped(y1) == stripped(y2)
        case (.ed25519(let k1), .ed25519(let k2)):
            return k1 == k2
        default:
            return false
        }
    }

    /// A big-endian unsigned integer without its leading zero bytes.
    static func stripped(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return [] }
        return bytes[first...]
    }

    /// authenticatorData ‖ clientDataHash: what packed, android-key and apple sign or hash.
    static func signedData(_ input: AttestationInput) -> [UInt8] {
        var data = input.authenticatorData.raw
        data.append(contentsOf: input.clientDataHash)
        return data
    }

    /// §8.2.1/§8.3.1: the FIDO AAGUID extension, when present, must not be critical and must
    /// equal the AAGUID in the attested credential data.
    static func checkAAGUIDExtension(
        _ certificate: X509Certificate, input: AttestationInput, format: String
    ) throws(WebAuthnError) {
        let extensionAAGUID: [UInt8]?
        do {
            extensionAAGUID = try certificate.fidoAAGUID()
        } catch {
            throw WebAuthnError(.aaguidExtension, "\(format): the FIDO AAGUID certificate extension is malformed")
        }
        guard let extensionAAGUID else { return }
        if certificate.extension(oid: "1.3.6.1.4.1.45724.1.1.4")?.critical == true {
            throw WebAuthnError(
                .aaguidExtension, "\(format): the FIDO AAGUID certificate extension must not be critical")
        }
        guard extensionAAGUID == input.authenticatorData.attestedCredentialData?.aaguid else {
            throw WebAuthnError(
                .aaguidExtension, "\(format): certificate AAGUID differs from the authenticator data AAGUID")
        }
    }
}

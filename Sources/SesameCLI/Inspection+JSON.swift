import Foundation
import SesameCrypto
import SesameWire
import WebAuthn

extension Inspection {
    /// The breakdown as JSON: every section key is always present (null when the input had no
    /// such part), and keys are snake_case.
    var json: JSONOutput {
        .object([
            ("kind", .string(kind.rawValue)),
            ("credential", credential.map(Inspection.json) ?? .null),
            ("client_data", clientData.map(Inspection.json) ?? .null),
            ("authenticator_data", authenticatorData.map(Inspection.json) ?? .null),
            ("attestation", attestation.map(Inspection.json) ?? .null),
        ])
    }

    private static func json(_ credential: Credential) -> JSONOutput {
        .object([
            ("id", .string(Base64URL.encode(credential.id))),
            ("transports", .array(credential.transports.map(JSONOutput.string))),
            ("authenticator_attachment", .optional(credential.authenticatorAttachment)),
            ("user_handle", .optional(credential.userHandle.map(Base64URL.encode))),
            ("signature", .optional(credential.signature.map(Base64URL.encode))),
        ])
    }

    private static func json(_ clientData: CollectedClientData) -> JSONOutput {
        .object([
            ("type", .string(clientData.type)),
            ("challenge", .string(Base64URL.encode(clientData.challenge))),
            ("origin", .string(clientData.origin)),
            ("cross_origin", .optional(clientData.crossOrigin)),
            ("top_origin", .optional(clientData.topOrigin)),
        ])
    }

    private static func json(_ data: AuthenticatorData) -> JSONOutput {
        let flags = data.flags
        var attested = JSONOutput.null
        if let credential = data.attestedCredentialData {
            attested = .object([
                ("aaguid", .string(AAGUIDRegistry.format(credential.aaguid))),
                ("aaguid_name", .optional(AAGUIDRegistry.name(for: credential.aaguid))),
                ("credential_id", .string(Base64URL.encode(credential.credentialID))),
                ("public_key", json(credential.credentialPublicKey)),
            ])
        }
        return .object([
            ("rp_id_hash", .string(Hex.lowercase(data.rpIDHash))),
            (
                "flags",
                .object([
                    ("value", .integer(Int64(flags.rawValue))),
                    ("user_present", .bool(flags.contains(.userPresent))),
                    ("user_verified", .bool(flags.contains(.userVerified))),
                    ("backup_eligible", .bool(flags.contains(.backupEligible))),
                    ("backup_state", .bool(flags.contains(.backupState))),
                    ("attested_credential_data", .bool(flags.contains(.attestedCredentialData))),
                    ("extension_data", .bool(flags.contains(.extensionData))),
                ])
            ),
            ("sign_count", .integer(Int64(data.signCount))),
            ("attested_credential_data", attested),
            ("extensions", .optional(data.extensions.map { CBORDiagnostic.describe($0) })),
        ])
    }

    private static func json(_ key: COSEKey) -> JSONOutput {
        .object([
            ("kty", .string(keyTypeName(key.keyType))),
            ("alg", .string(key.algorithm.name)),
            ("alg_id", .integer(Int64(key.algorithm.rawValue))),
            ("curve", .optional(key.curveName)),
            ("rsa_bits", rsaBits(key).map { .integer(Int64($0)) } ?? .null),
            ("cose", .string(Base64URL.encode(key.encoded))),
        ])
    }

    private static func json(_ attestation: Attestation) -> JSONOutput {
        let result = attestation.result
        return .object([
            ("fmt", .string(attestation.format)),
            ("alg", .optional(attestation.algorithm.map(algorithmName))),
            ("verified", result != nil ? .bool(true) : attestation.error != nil ? .bool(false) : .null),
            ("type", .optional(result?.type.rawValue)),
            ("chain_verified", .optional(result?.chainVerified)),
            ("note", .optional(result?.chainNote ?? attestation.note)),
            (
                "error",
                attestation.error.map {
                    .object([("check", .string($0.code.rawValue)), ("message", .string($0.message))])
                } ?? .null
            ),
            ("certificates", .array(attestation.certificates.map(json))),
        ])
    }

    private static func json(_ certificate: X509Certificate) -> JSONOutput {
        .object([
            ("subject", .string(certificate.subject.description)),
            ("issuer", .string(certificate.issuer.description)),
            ("not_before", .string(timestamp(certificate.notBefore))),
            ("not_after", .string(timestamp(certificate.notAfter))),
        ])
    }

    // MARK: Shared formatting

    static func keyTypeName(_ keyType: COSEKey.KeyType) -> String {
        switch keyType {
        case .ec2: return "EC2"
        case .okp: return "OKP"
        case .rsa: return "RSA"
        }
    }

    /// The modulus size in bits for RSA keys.
    static func rsaBits(_ key: COSEKey) -> Int? {
        guard case .rsa(let modulus, _) = key.components else { return nil }
        let significant = modulus.drop { $0 == 0 }
        guard let first = significant.first else { return 0 }
        return (significant.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    }

    /// "ES256" for a known COSE algorithm identifier, else the number.
    static func algorithmName(_ identifier: Int64) -> String {
        Int(exactly: identifier).flatMap(COSEAlgorithm.init(rawValue:))?.name ?? String(identifier)
    }

    /// ISO 8601 in UTC, whole seconds.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

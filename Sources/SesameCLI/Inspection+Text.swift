import SesameCrypto
import SesameWire
import WebAuthn

extension Inspection {
    /// The breakdown for people: one section per part, `label  value` lines.
    var text: String {
        var lines: [String] = []
        let title: String
        switch kind {
        case .registration: title = "Input: registration response"
        case .authentication: title = "Input: authentication response"
        case .attestationObject: title = "Input: attestation object"
        case .authenticatorData: title = "Input: authenticator data"
        case .clientData: title = "Input: clientDataJSON"
        }
        lines.append(title)
        if let credential {
            lines.append("")
            lines.append("Credential")
            Inspection.field(&lines, "id", Base64URL.encode(credential.id))
            if kind == .registration {
                let transports = credential.transports.isEmpty ? "-" : credential.transports.joined(separator: ", ")
                Inspection.field(&lines, "transports", transports)
            }
            Inspection.field(&lines, "attachment", credential.authenticatorAttachment ?? "-")
            if kind == .authentication {
                Inspection.field(&lines, "user handle", credential.userHandle.map(Base64URL.encode) ?? "-")
                if let signature = credential.signature {
                    Inspection.field(&lines, "signature", "\(signature.count) bytes \(Base64URL.encode(signature))")
                }
            }
        }
        if let clientData {
            lines.append("")
            lines.append("Client data")
            Inspection.field(&lines, "type", clientData.type)
            Inspection.field(&lines, "challenge", Base64URL.encode(clientData.challenge))
            Inspection.field(&lines, "origin", clientData.origin)
            Inspection.field(&lines, "cross origin", clientData.crossOrigin.map { $0 ? "true" : "false" } ?? "-")
            Inspection.field(&lines, "top origin", clientData.topOrigin ?? "-")
        }
        if let authenticatorData {
            lines.append("")
            lines.append("Authenticator data")
            Inspection.authenticatorLines(&lines, authenticatorData)
        }
        if let attestation {
            lines.append("")
            lines.append("Attestation")
            Inspection.attestationLines(&lines, attestation)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The flags byte as hex and each named flag set (+) or clear (-).
    static func flagsText(_ flags: AuthenticatorFlags) -> String {
        let named: [(String, AuthenticatorFlags)] = [
            ("UP", .userPresent), ("UV", .userVerified), ("BE", .backupEligible), ("BS", .backupState),
            ("AT", .attestedCredentialData), ("ED", .extensionData),
        ]
        let digits = String(flags.rawValue, radix: 16)
        let hexByte = "0x" + (flags.rawValue < 0x10 ? "0" + digits : digits)
        return hexByte + "  " + named.map { $0.0 + (flags.contains($0.1) ? "+" : "-") }.joined(separator: " ")
    }

    private static func authenticatorLines(_ lines: inout [String], _ data: AuthenticatorData) {
        field(&lines, "rp id hash", Hex.lowercase(data.rpIDHash))
        field(&lines, "flags", flagsText(data.flags))
        field(&lines, "sign count", String(data.signCount))
        if let credential = data.attestedCredentialData {
            let aaguid = AAGUIDRegistry.format(credential.aaguid)
            let provider = AAGUIDRegistry.name(for: credential.aaguid).map { " (\($0))" } ?? ""
            field(&lines, "aaguid", aaguid + provider)
            field(&lines, "credential id", Base64URL.encode(credential.credentialID))
            let key = credential.credentialPublicKey
            var summary = "\(keyTypeName(key.keyType)) \(key.algorithm.name) (\(key.algorithm.rawValue))"
            if let curve = key.curveName { summary += " \(curve)" }
            if let bits = rsaBits(key) { summary += " \(bits)-bit" }
            field(&lines, "public key", summary)
            field(&lines, "", Base64URL.encode(key.encoded))
        }
        if let extensions = data.extensions {
            field(&lines, "extensions", CBORDiagnostic.describe(extensions))
        }
    }

    private static func attestationLines(_ lines: inout [String], _ attestation: Attestation) {
        field(&lines, "fmt", attestation.format)
        if let algorithm = attestation.algorithm {
            field(&lines, "alg", "\(algorithmName(algorithm)) (\(algorithm))")
        }
        if let result = attestation.result {
            field(&lines, "verified", "yes (permissive policy)")
            field(&lines, "type", result.type.rawValue)
            let chain: String
            if result.chainVerified {
                chain = "verified to a trust anchor"
            } else if result.certificates.isEmpty {
                chain = "no certificates"
            } else {
                chain = "not verified: \(result.chainNote ?? "no trust anchors")"
            }
            field(&lines, "chain", chain)
        } else if let error = attestation.error {
            field(&lines, "verified", "no: \(error.code.rawValue): \(error.message)")
        } else if let note = attestation.note {
            field(&lines, "verified", note)
        }
        for (index, certificate) in attestation.certificates.enumerated() {
            lines.append("  certificate \(index + 1)\(index == 0 ? " (leaf)" : "")")
            field(&lines, "subject", nameText(certificate.subject), indent: 4)
            field(&lines, "issuer", nameText(certificate.issuer), indent: 4)
            field(
                &lines, "valid",
                "\(timestamp(certificate.notBefore)) to \(timestamp(certificate.notAfter))", indent: 4)
        }
    }

    /// A distinguished name on one line; TPM attestation certificates have an empty subject.
    private static func nameText(_ name: DistinguishedName) -> String {
        name.attributes.isEmpty ? "(empty)" : name.description
    }

    /// Appends `label` padded to a column, then `value`.
    private static func field(_ lines: inout [String], _ label: String, _ value: String, indent: Int = 2) {
        let width = 16 - indent
        let padded = label.count >= width ? label + " " : label + String(repeating: " ", count: width - label.count)
        lines.append(String(repeating: " ", count: indent) + padded + value)
    }
}

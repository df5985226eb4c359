/// The attestation statement formats the core implements, by `fmt` identifier.
public enum AttestationFormats {
    /// Every implemented format.
    public static let all: [any AttestationFormatVerifier.Type] = [
        NoneAttestation.self, PackedAttestation.self, FIDOU2FAttestation.self, AppleAttestation.self,
        AndroidKeyAttestation.self, AndroidSafetyNetAttestation.self, TPMAttestation.self,
    ]

    /// Format identifiers, e.g. ["none", "packed", …].
    public static var identifiers: [String] { all.map { $0.format } }

    /// §7.1 steps 25–26: dispatch on `fmt` (exact, case-sensitive match) and verify.
    public static func verify(format: String, _ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        if let allowed = input.policy.allowedFormats, !allowed.contains(format) {
            throw WebAuthnError(.attestationPolicy, "attestation format \"\(format)\" is not accepted by policy")
        }
        guard let verifier = all.first(where: { $0.format == format }) else {
            throw WebAuthnError(.unsupportedFormat, "unsupported attestation format \"\(format)\"")
        }
        return try verifier.verify(input)
    }
}

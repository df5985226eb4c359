import SesameCrypto

/// The `packed` format (§8.2): self attestation, or a certificate path (basic/AttCA).
public enum PackedAttestation: AttestationFormatVerifier {
    public static let format = "packed"

    public static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        // §8.2 verification procedure, step 1: alg and sig are present; x5c optional.
        let algorithm = try FormatStatementSupport.algorithm(input.statement, format: format)
        let signature = try FormatStatementSupport.bytes(input.statement, "sig", format: format)
        let signedData = FormatStatementSupport.signedData(input)

        if input.statement[textKey: "x5c"] != nil {
            // Step 2: x5c present: sig verifies with the attestation certificate's key and alg.
            let certificates = try AttestationChain.certificates(from: input.statement, format: format)
            let leaf = certificates[0]
            let key = try FormatStatementSupport.publicKey(of: leaf, format: format)
            try FormatStatementSupport.verifySignature(
                signature, over: signedData, key: key, algorithm: algorithm.signatureAlgorithm, format: format,
                what: "attestation signature")
            // Step 2, bullets 2–3: certificate requirements (§8.2.1) and the AAGUID extension.
            try checkCertificateRequirements(leaf)
            try FormatStatementSupport.checkAAGUIDExtension(leaf, input: input, format: format)
            try AttestationChain.checkValidity(certificates, format: format, now: input.now)
            let (verified, note) = try AttestationChain.check(
                certificates, format: format, policy: input.policy, now: input.now)
            // Without metadata, Basic and AttCA cannot be told apart; report Basic.
            return AttestationResult(
                format: format, type: .basic, certificates: certificates, chainVerified: verified, chainNote: note)
        }

        // Step 3: self attestation: alg is the credential's, and the credential key signs.
        let credentialKey = try FormatStatementSupport.attestedCredential(input, format: format).credentialPublicKey
        guard credentialKey.algorithm == algorithm else {
            throw WebAuthnError(
                .algorithm,
                "packed: self attestation alg \(algorithm.name) differs from the credential's \(credentialKey.algorithm.name)"
            )
        }
        try FormatStatementSupport.verifySignature(
            signature, over: signedData, key: try credentialKey.publicKey(), algorithm: algorithm.signatureAlgorithm,
            format: format, what: "self-attestation signature")
        return AttestationResult(
            format: format, type: .self, certificates: [], chainVerified: false,
            chainNote: "self attestation has no certificate path")
    }

    /// §8.2.1: version 3, subject C/O/OU="Authenticator Attestation"/CN, not a CA.
    static func checkCertificateRequirements(_ certificate: X509Certificate) throws(WebAuthnError) {
        guard certificate.version == 3 else {
            throw WebAuthnError(.attestationStatement, "packed: attestation certificate must be X.509 version 3")
        }
        let subject = certificate.subject
        for (name, label) in [("C", "country"), ("O", "organization"), ("CN", "common name")]
        where subject.values(of: name).first?.isEmpty ?? true {
            throw WebAuthnError(
                .attestationStatement, "packed: attestation certificate subject has no \(label) (\(name))")
        }
        guard subject.values(of: "OU") == ["Authenticator Attestation"] else {
            throw WebAuthnError(
                .attestationStatement,
                "packed: attestation certificate subject OU must be \"Authenticator Attestation\"")
        }
        if certificate.basicConstraints?.isCA == true {
            throw WebAuthnError(.attestationStatement, "packed: attestation certificate must not be a CA")
        }
    }
}

import SesameCrypto

/// The `fido-u2f` format (§8.6): a U2F authenticator's batch certificate signs the registration.
public enum FIDOU2FAttestation: AttestationFormatVerifier {
    public static let format = "fido-u2f"

    public static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        // Step 1: x5c and sig.
        let signature = try FormatStatementSupport.bytes(input.statement, "sig", format: format)
        let certificates = try AttestationChain.certificates(from: input.statement, format: format)
        // Step 2: exactly one certificate, whose key is an EC P-256 key.
        guard certificates.count == 1 else {
            throw WebAuthnError(.attestationStatement, "fido-u2f: x5c must hold exactly one certificate")
        }
        let certificateKey = try FormatStatementSupport.publicKey(of: certificates[0], format: format)
        guard certificateKey.type == .ec(.p256) else {
            throw WebAuthnError(.attestationStatement, "fido-u2f: attestation certificate key is not an EC P-256 key")
        }
        // Step 3: rpIdHash, credentialId and credentialPublicKey from authenticatorData.
        guard let attested = input.authenticatorData.attestedCredentialData else {
            throw WebAuthnError(.malformed, "fido-u2f: authenticator data has no attested credential data")
        }
        if input.policy.requireZeroAAGUIDForFIDOU2F, attested.aaguid.contains(where: { $0 != 0 }) {
            throw WebAuthnError(.attestationPolicy, "fido-u2f: AAGUID must be all zeros")
        }
        // Step 4: the credential key as an uncompressed ANSI X9.62 point.
        guard case .ec(.p256, let x, let y) = attested.credentialPublicKey.components else {
            throw WebAuthnError(.algorithm, "fido-u2f: the credential key must be an EC P-256 key")
        }
        // Step 5: verificationData = 0x00 ‖ rpIdHash ‖ clientDataHash ‖ credentialId ‖ publicKeyU2F.
        var verificationData: [UInt8] = [0x00]
        verificationData.append(contentsOf: input.authenticatorData.rpIDHash)
        verificationData.append(contentsOf: input.clientDataHash)
        verificationData.append(contentsOf: attested.credentialID)
        verificationData.append(0x04)
        verificationData.append(contentsOf: x)
        verificationData.append(contentsOf: y)
        // Step 6: ECDSA P-256 with SHA-256.
        try FormatStatementSupport.verifySignature(
            signature, over: verificationData, key: certificateKey, algorithm: .ecdsa(.sha256), format: format,
            what: "attestation signature")
        // Step 7: trust.
        try AttestationChain.checkValidity(certificates, format: format, now: input.now)
        let (verified, note) = try AttestationChain.check(
            certificates, format: format, policy: input.policy, now: input.now)
        return AttestationResult(
            format: format, type: .basic, certificates: certificates, chainVerified: verified, chainNote: note)
    }
}

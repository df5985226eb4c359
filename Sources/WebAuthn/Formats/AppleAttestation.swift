import SesameCrypto

/// The `apple` anonymous attestation format (§8.8).
public enum AppleAttestation: AttestationFormatVerifier {
    public static let format = "apple"

    public static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        // Step 1: x5c.
        let certificates = try AttestationChain.certificates(from: input.statement, format: format)
        let credentialCertificate = certificates[0]
        // Step 2: nonce = SHA-256(authenticatorData ‖ clientDataHash).
        let nonce = Digest.sha256(FormatStatementSupport.signedData(input))
        // Step 3: the certificate's 1.2.840.113635.100.8.2 extension holds that nonce.
        let certificateNonce: [UInt8]?
        do {
            certificateNonce = try credentialCertificate.appleNonce()
        } catch {
            throw WebAuthnError(.attestationStatement, "apple: the nonce certificate extension is malformed")
        }
        guard let certificateNonce else {
            throw WebAuthnError(.attestationStatement, "apple: the credential certificate has no nonce extension")
        }
        guard constantTimeEquals(certificateNonce, nonce) else {
            throw WebAuthnError(.attestationStatement, "apple: the certificate nonce does not match the attestation")
        }
        // Step 4: the credential key is the certificate's subject key.
        let credentialKey = try FormatStatementSupport.attestedCredential(input, format: format).credentialPublicKey
        let certificateKey = try FormatStatementSupport.publicKey(of: credentialCertificate, format: format)
        guard FormatStatementSupport.sameKey(credentialKey.components, certificateKey.components) else {
            throw WebAuthnError(.attestationStatement, "apple: the credential key differs from the certificate key")
        }
        // Step 5: Anonymization CA.
        try AttestationChain.checkValidity(certificates, format: format, now: input.now)
        let (verified, note) = try AttestationChain.check(
            certificates, format: format, policy: input.policy, now: input.now)
        return AttestationResult(
            format: format, type: .anonCA, certificates: certificates, chainVerified: verified, chainNote: note)
    }
}

import Foundation
import SesameCrypto

/// The `android-key` attestation statement format (WebAuthn Level 3 §8.4): Android Keystore
/// attests the credential key itself, so `x5c[0]` certifies the credential public key and its
/// key description extension binds the clientDataHash.
///
/// The spec lets an RP accept only keys whose origin and purpose the TEE enforces. The policy
/// has no switch for that, so the union of `teeEnforced` and `softwareEnforced` is checked, as
/// the spec prescribes for an RP that does not restrict itself to TEE keys.
public enum AndroidKeyAttestation: AttestationFormatVerifier {
    /// The `fmt` identifier.
    public static let format = "android-key"

    /// KM_ORIGIN_GENERATED: the key was generated inside Keystore.
    static let originGenerated = 0
    /// KM_PURPOSE_SIGN.
    static let purposeSign = 2

    /// Verifies an `android-key` statement; the result is Basic with the x5c path.
    public static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        let statement = input.statement
        // §8.4 step 1: attStmt is CBOR of the androidStmtFormat syntax; extract its fields.
        let algorithm = try FormatStatementSupport.algorithm(statement, format: format)
        let signature = try FormatStatementSupport.bytes(statement, "sig", format: format)
        let certificates = try AttestationChain.certificates(from: statement, format: format)
        guard let credentialCertificate = certificates.first else {
            throw WebAuthnError(.attestationStatement, "android-key: x5c is empty")
        }
        let attested = try FormatStatementSupport.attestedCredential(input, format: format)

        // §8.4 step 2: sig is a valid signature over authenticatorData ‖ clientDataHash with the
        // public key in x5c[0] and "alg".
        let certificateKey = try FormatStatementSupport.publicKey(of: credentialCertificate, format: format)
        try FormatStatementSupport.verifySignature(
            signature, over: input.authenticatorData.raw + input.clientDataHash, key: certificateKey,
            algorithm: algorithm.signatureAlgorithm, format: format, what: "sig over authenticatorData ‖ clientDataHash"
        )

        // §8.4 step 3: the public key in x5c[0] is the credentialPublicKey.
        guard FormatStatementSupport.sameKey(certificateKey.components, attested.credentialPublicKey.components) else {
            throw WebAuthnError(
                .attestationStatement, "android-key: x5c[0]'s public key is not the credentialPublicKey")
        }

        // §8.4 step 4: attestationChallenge in the key description extension is clientDataHash.
        let description: AndroidKeyDescription?
        do {
            description = try credentialCertificate.androidKeyDescription()
        } catch {
            throw WebAuthnError(
                .attestationStatement, "android-key: the key description extension is malformed: \(error)")
        }
        guard let description else {
            throw WebAuthnError(
                .attestationStatement, "android-key: x5c[0] has no key description extension (1.3.6.1.4.1.11129.2.1.17)"
            )
        }
        guard description.attestationChallenge == input.clientDataHash else {
            throw WebAuthnError(.attestationStatement, "android-key: attestationChallenge is not the clientDataHash")
        }

        // §8.4 step 5: check the authorization lists.
        try checkAuthorizationLists(tee: description.teeEnforced, software: description.softwareEnforced)

        // §7.1 steps 21–23: the trust path must be valid now and chain to a configured anchor.
        try AttestationChain.checkValidity(certificates, format: format, now: input.now)
        let (chainVerified, chainNote) = try AttestationChain.check(
            certificates, format: format, policy: input.policy, now: input.now)
        // §8.4 step 6: return Basic with trust path x5c.
        return AttestationResult(
            format: format, type: .basic, certificates: certificates, chainVerified: chainVerified, chainNote: chainNote
        )
    }

    /// §8.4 step 5 on the two authorization lists of the key description.
    static func checkAuthorizationLists(
        tee: AndroidAuthorizationList, software: AndroidAuthorizationList
    ) throws(WebAuthnError) {
        // allApplications is present on neither list: the credential must be scoped to the RP ID.
        guard !tee.allApplications, !software.allApplications else {
            throw WebAuthnError(
                .androidKeyAuthorizationList,
                "android-key: allApplications is present; the key is not scoped to one app")
        }
        // Using the union of teeEnforced and softwareEnforced: origin is KM_ORIGIN_GENERATED ...
        let origins = [tee.origin, software.origin].compactMap { $0 }
        guard !origins.isEmpty else {
            throw WebAuthnError(.androidKeyAuthorizationList, "android-key: neither authorization list has an origin")
        }
        guard origins.allSatisfy({ $0 == originGenerated }) else {
            throw WebAuthnError(
                .androidKeyAuthorizationList, "android-key: origin \(origins) is not KM_ORIGIN_GENERATED")
        }
        // ... and purpose is KM_PURPOSE_SIGN.
        let purposes = (tee.purpose ?? []) + (software.purpose ?? [])
        guard purposes.contains(purposeSign) else {
            throw WebAuthnError(
                .androidKeyAuthorizationList, "android-key: purpose \(purposes) does not include KM_PURPOSE_SIGN")
        }
    }
}

import Foundation
import SesameCrypto

/// An authenticator model as FIDO metadata names it: a FIDO2 authenticator by its AAGUID, a U2F
/// one by the key identifier of its attestation certificate (SHA-1 of the subjectPublicKey bits,
/// RFC 5280 §4.2.1.2 method 1).
public enum AuthenticatorModel: Sendable, Hashable {
    case aaguid([UInt8])
    case attestationKeyIdentifier([UInt8])

    /// The models an attestation object may belong to, before it is verified (so the caller can
    /// look their metadata up): its AAGUID unless all zero, then the key identifiers of the
    /// `x5c` leaf. A statement that does not parse yields what could be read; verification
    /// reports the fault.
    public static func candidates(attestationObject bytes: [UInt8]) -> [AuthenticatorModel] {
        guard let object = try? AttestationObject(bytes: bytes) else { return [] }
        var models: [AuthenticatorModel] = []
        if let aaguid = object.authenticatorData.attestedCredentialData?.aaguid, aaguid.contains(where: { $0 != 0 }) {
            models.append(.aaguid(aaguid))
        }
        if let leaf = object.statement[textKey: "x5c"]?.arrayValue?.first?.bytesValue,
            let certificate = try? X509Certificate(der: leaf)
        {
            models += keyIdentifiers(of: certificate).map { .attestationKeyIdentifier($0) }
        }
        return models
    }

    /// The key identifiers metadata may list for an attestation certificate: SHA-1 of its
    /// subjectPublicKey bits, and its subjectKeyIdentifier when that differs.
    public static func keyIdentifiers(of certificate: X509Certificate) -> [[UInt8]] {
        var identifiers = [Digest.legacySHA1(certificate.subjectPublicKeyBits)]
        if let declared = certificate.subjectKeyIdentifier, !identifiers.contains(declared) {
            identifiers.append(declared)
        }
        return identifiers
    }
}

extension AttestationChain {
    /// The metadata step after a format verified its statement (FIDO MDS: the attestation roots of
    /// the authenticator's metadata are the trust anchors of its certificate path). When the
    /// policy holds roots for the attested AAGUID, or for a key identifier of the leaf, the path
    /// must verify to them at `now`, and the result names that model. A statement without a
    /// certificate path, or a model without metadata roots, is returned as it was.
    public static func checkMetadata(
        _ result: AttestationResult, aaguid: [UInt8], policy: AttestationPolicy, now: Date
    ) throws(WebAuthnError) -> AttestationResult {
        guard let leaf = result.certificates.first, !policy.metadataAnchors.isEmpty else { return result }
        var models: [AuthenticatorModel] = []
        if aaguid.contains(where: { $0 != 0 }) { models.append(.aaguid(aaguid)) }
        models += AuthenticatorModel.keyIdentifiers(of: leaf).map { .attestationKeyIdentifier($0) }
        guard let model = models.first(where: { !(policy.metadataAnchors[$0] ?? []).isEmpty }),
            let anchors = policy.metadataAnchors[model]
        else { return result }
        do {
            _ = try X509ChainVerifier.verify(chain: result.certificates, roots: anchors, at: now)
        } catch {
            throw WebAuthnError(
                .trustChain,
                "\(result.format): certificate path does not chain to the authenticator's metadata roots: \(error)")
        }
        var checked = result
        checked.chainVerified = true
        checked.chainNote = nil
        checked.metadataModel = model
        return checked
    }
}

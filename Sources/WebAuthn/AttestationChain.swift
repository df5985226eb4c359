import Foundation
import SesameCrypto

/// Shared helpers for attestation formats that carry an `x5c` certificate path.
public enum AttestationChain {
    /// Parses `attStmt.x5c`: a non-empty array of DER certificates, leaf first.
    public static func certificates(from statement: CBORValue, format: String) throws(WebAuthnError)
        -> [X509Certificate]
    {
        guard let items = statement[textKey: "x5c"]?.arrayValue, !items.isEmpty else {
            throw WebAuthnError(.attestationStatement, "\(format): x5c must be a non-empty array of certificates")
        }
        var certificates: [X509Certificate] = []
        certificates.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard let der = item.bytesValue else {
                throw WebAuthnError(.attestationStatement, "\(format): x5c[\(index)] is not a byte string")
            }
            do {
                certificates.append(try X509Certificate(der: der))
            } catch {
                throw WebAuthnError(
                    .attestationStatement, "\(format): x5c[\(index)] is not a valid certificate: \(error)")
            }
        }
        return certificates
    }

    /// Checks a certificate path against the policy's anchors for `format` (WebAuthn §7.1 step 23):
    /// anchors configured → the path must verify at `now`; an empty list → the statement was
    /// checked but the chain is deliberately not; no entry → reported as not chained.
    /// Returns (chainVerified, note).
    public static func check(
        _ certificates: [X509Certificate], format: String, policy: AttestationPolicy, now: Date
    ) throws(WebAuthnError) -> (Bool, String?) {
        guard let anchors = policy.trustAnchors[format] else {
            return (false, "no trust anchors configured for \(format)")
        }
        if anchors.isEmpty {
            return (false, "trust chain check disabled for \(format)")
        }
        do {
            _ = try X509ChainVerifier.verify(chain: certificates, roots: anchors, at: now)
            return (true, nil)
        } catch {
            throw WebAuthnError(.trustChain, "\(format): certificate path does not chain to a trusted root: \(error)")
        }
    }

    /// Rejects a path whose certificates are not valid at `now` even when no anchors are set,
    /// unless `skipValidity` (the conformance vectors with no pinned clock).
    public static func checkValidity(_ certificates: [X509Certificate], format: String, now: Date) throws(WebAuthnError)
    {
        for (index, certificate) in certificates.enumerated()
        where now < certificate.notBefore || now > certificate.notAfter {
            throw WebAuthnError(
                .trustChain,
                "\(format): x5c[\(index)] is not valid at \(now) (valid \(certificate.notBefore) to \(certificate.notAfter))"
            )
        }
    }
}

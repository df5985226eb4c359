import Foundation
import SesameCrypto

/// The `android-safetynet` attestation statement format (WebAuthn Level 3 §8.5): a SafetyNet
/// attestation JWS whose nonce binds the authenticator data and client data hash, signed by a
/// Google certificate issued to attest.android.com.
public enum AndroidSafetyNetAttestation: AttestationFormatVerifier {
    /// The `fmt` identifier.
    public static let format = "android-safetynet"

    /// The hostname the signing certificate must be issued to.
    static let hostname = "attest.android.com"

    /// The JOSE header members SafetyNet uses.
    struct Header: Decodable {
        let alg: String
        let x5c: [String]
        let crit: [String]?
    }

    /// The payload members WebAuthn checks.
    struct Payload: Decodable {
        let nonce: String
        let timestampMs: Int64
        let ctsProfileMatch: Bool?
    }

    /// Verifies an `android-safetynet` statement; the result is Basic with the JWS x5c path.
    public static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        let statement = input.statement
        // §8.5 step 1: attStmt is CBOR of the safetynetStmtFormat syntax; extract its fields.
        let version = try FormatStatementSupport.text(statement, "ver", format: format)
        guard !version.isEmpty else {
            throw WebAuthnError(.attestationStatement, "android-safetynet: ver is empty")
        }
        let response = try FormatStatementSupport.bytes(statement, "response", format: format)

        // §8.5 step 2: response is a valid SafetyNet response of version ver: a compact JWS whose
        // header names the algorithm and the certificate path.
        let jws: CompactJWS
        do {
            jws = try CompactJWS(compact: response)
        } catch {
            throw WebAuthnError(.attestationStatement, "android-safetynet: response: \(error.message)")
        }
        let header: Header = try decodeJSON(jws.header, what: "JWS header")
        let payload: Payload = try decodeJSON(jws.payload, what: "JWS payload")
        guard header.crit == nil else {
            throw WebAuthnError(
                .attestationStatement,
                "android-safetynet: JWS header has crit members this verifier does not understand")
        }
        let certificates = try headerCertificates(header.x5c)
        guard let leaf = certificates.first else {
            throw WebAuthnError(.attestationStatement, "android-safetynet: JWS x5c is empty")
        }
        let (signatureAlgorithm, encoding) = try jwsAlgorithm(header.alg)

        // §8.5 step 3: nonce is the Base64 encoding of SHA-256(authenticatorData ‖ clientDataHash).
        let expectedNonce = Base64.encodePadded(Digest.sha256(input.authenticatorData.raw + input.clientDataHash))
        guard payload.nonce == expectedNonce else {
            throw WebAuthnError(
                .attestationStatement, "android-safetynet: nonce is not SHA-256(authenticatorData ‖ clientDataHash)")
        }
        // The response is fresh: timestampMs is neither older nor later than safetyNetMaxAge
        // around now. Checked before the certificates, so a stale response is reported as
        // stale even when its certificates have expired since.
        let timestamp = Date(timeIntervalSince1970: Double(payload.timestampMs) / 1000)
        let skew = timestamp.timeIntervalSince(input.now)
        guard abs(skew) <= input.policy.safetyNetMaxAge else {
            throw WebAuthnError(
                .safetyNetTimestamp,
                "android-safetynet: timestampMs \(timestamp) is \(Int(skew)) s from now, beyond \(input.policy.safetyNetMaxAge) s"
            )
        }

        // §8.5 step 4: the response came from the SafetyNet service, in the order the SafetyNet
        // documentation gives: (1) the certificate path is valid and chains to a configured anchor
        // (GlobalSign). CRLs are not checked: a revoked certificate passes this format check.
        try AttestationChain.checkValidity(certificates, format: format, now: input.now)
        let (chainVerified, chainNote) = try AttestationChain.check(
            certificates, format: format, policy: input.policy, now: input.now)
        // (2) the leaf certificate is issued to attest.android.com ...
        let commonNames = leaf.subject.values(of: "2.5.4.3")
        guard commonNames == [hostname] else {
            throw WebAuthnError(
                .attestationStatement,
                "android-safetynet: the signing certificate is issued to \(commonNames), not \(hostname)")
        }
        // (3) ... and its key verifies the JWS signature.
        let leafKey = try FormatStatementSupport.publicKey(of: leaf, format: format)
        try FormatStatementSupport.verifySignature(
            jws.signature, over: jws.signingInput, key: leafKey, algorithm: signatureAlgorithm, encoding: encoding,
            format: format, what: "JWS signature")
        // ctsProfileMatch is true (Level 2 §8.5; a policy choice in Level 3).
        if input.policy.requireSafetyNetCTSProfileMatch && payload.ctsProfileMatch != true {
            throw WebAuthnError(.safetyNetCTS, "android-safetynet: ctsProfileMatch is not true")
        }

        // §8.5 step 5: return Basic with trust path x5c.
        return AttestationResult(
            format: format, type: .basic, certificates: certificates, chainVerified: chainVerified, chainNote: chainNote
        )
    }

    /// The JWS `alg` values SafetyNet uses, as SesameCrypto algorithms and signature encodings.
    static func jwsAlgorithm(_ alg: String) throws(WebAuthnError) -> (SignatureAlgorithm, ECDSASignatureFormat) {
        switch alg {
        case "RS256": return (.rsaPKCS1v15(.sha256), .der)
        case "ES256": return (.ecdsa(.sha256), .raw)
        default:
            throw WebAuthnError(.algorithm, "android-safetynet: JWS alg \"\(alg)\" is not supported (RS256, ES256)")
        }
    }

    /// The header's x5c: standard base64 DER certificates, leaf first.
    static func headerCertificates(_ encoded: [String]) throws(WebAuthnError) -> [X509Certificate] {
        guard !encoded.isEmpty else {
            throw WebAuthnError(.attestationStatement, "android-safetynet: JWS x5c is empty")
        }
        var certificates: [X509Certificate] = []
        for (index, text) in encoded.enumerated() {
            guard let der = Base64.decodeStandard(text) else {
                throw WebAuthnError(.attestationStatement, "android-safetynet: JWS x5c[\(index)] is not base64")
            }
            do {
                certificates.append(try X509Certificate(der: [UInt8](der)))
            } catch {
                throw WebAuthnError(
                    .attestationStatement, "android-safetynet: JWS x5c[\(index)] is not a valid certificate: \(error)")
            }
        }
        return certificates
    }

    private static func decodeJSON<T: Decodable>(_ bytes: [UInt8], what: String) throws(WebAuthnError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch {
            throw WebAuthnError(.attestationStatement, "android-safetynet: \(what) is not the expected JSON: \(error)")
        }
    }
}

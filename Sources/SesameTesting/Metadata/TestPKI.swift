import Foundation
import SesameCrypto
import SesameSoftwareAuthenticator
import WebAuthn

/// A new P-256 key and a self-signed CA certificate "`name` Root" for it, valid from `start` to `end`.
func selfSignedRoot(name: String, from start: Date, until end: Date) throws -> (PrivateKey, X509Certificate) {
    let key = try PrivateKey.generate(.ec(.p256))
    let root = try X509CertificateIssuer.issue(
        .init(
            subject: [("C", "US"), ("O", name), ("CN", "\(name) Root")], notBefore: start, notAfter: end, isCA: true),
        subjectKey: key.publicKey, issuer: nil, issuerKey: key)
    return (key, root)
}

/// A throwaway PKI for tests: a root, an intermediate and a signer, issued by libcrypto through
/// `X509CertificateIssuer` (no checked-in keys, no hand-made DER).
public struct TestPKI: Sendable {
    public let rootKey: PrivateKey
    public let root: X509Certificate
    public let intermediateKey: PrivateKey
    public let intermediate: X509Certificate
    public let signerKey: PrivateKey
    public let signer: X509Certificate

    /// Certificates valid from a day before `now`; the signer until `signerNotAfter` (default a
    /// year after `now`). `keyType` is the signer's key (the CAs use P-256).
    public static func make(
        now: Date, name: String = "Sesame Test MDS", signerNotAfter: Date? = nil, keyType: KeyType = .ec(.p256)
    ) throws -> TestPKI {
        let start = now.addingTimeInterval(-86_400)
        let end = now.addingTimeInterval(10 * 365 * 86_400)
        let (rootKey, root) = try selfSignedRoot(name: name, from: start, until: end)
        let intermediateKey = try PrivateKey.generate(.ec(.p256))
        let intermediate = try X509CertificateIssuer.issue(
            .init(
                subject: [("C", "US"), ("O", name), ("CN", "\(name) CA")], serialNumber: 2, notBefore: start,
                notAfter: end, isCA: true),
            subjectKey: intermediateKey.publicKey, issuer: root, issuerKey: rootKey)
        let signerKey = try PrivateKey.generate(keyType)
        let signer = try X509CertificateIssuer.issue(
            .init(
                subject: [("C", "US"), ("O", name), ("CN", "\(name) BLOB signer")], serialNumber: 3, notBefore: start,
                notAfter: signerNotAfter ?? now.addingTimeInterval(365 * 86_400), isCA: false),
            subjectKey: signerKey.publicKey, issuer: intermediate, issuerKey: intermediateKey)
        return TestPKI(
            rootKey: rootKey, root: root, intermediateKey: intermediateKey, intermediate: intermediate,
            signerKey: signerKey, signer: signer)
    }

    /// The root as a PEM file's text.
    public var rootPEM: String { root.pem }
}

/// An attestation CA for the software authenticator's full `packed` attestation: a root and an
/// attestation certificate for one AAGUID, with the subject §8.2.1 asks for.
public struct TestAttestationCA: Sendable {
    public let root: X509Certificate
    public let identity: AuthenticatorConfiguration.AttestationIdentity

    public static func make(aaguid: [UInt8], now: Date, name: String = "Sesame Test Authenticators") throws
        -> TestAttestationCA
    {
        let start = now.addingTimeInterval(-86_400)
        let end = now.addingTimeInterval(5 * 365 * 86_400)
        let (rootKey, root) = try selfSignedRoot(name: name, from: start, until: end)
        let key = try PrivateKey.generate(.ec(.p256))
        let leaf = try X509CertificateIssuer.issue(
            .init(
                subject: [
                    ("C", "US"), ("O", name), ("OU", "Authenticator Attestation"), ("CN", "\(name) Attestation"),
                ],
                serialNumber: 7, notBefore: start, notAfter: end, isCA: false, aaguid: aaguid),
            subjectKey: key.publicKey, issuer: root, issuerKey: rootKey)
        return TestAttestationCA(
            root: root,
            identity: .init(privateKeyPKCS8: key.pkcs8DER, certificates: [leaf.der], algorithm: .es256))
    }
}

/// A FIDO U2F authenticator model for tests: a root and a batch attestation certificate (no
/// AAGUID, as U2F keys carry none), and the `fido-u2f` attestation (§8.6) the software
/// authenticator cannot make itself. FIDO metadata names such a model by the certificate's key
/// identifier.
public struct TestU2FAttestation: Sendable {
    public let root: X509Certificate
    public let key: PrivateKey
    public let certificate: X509Certificate

    /// A root and an attestation certificate for `key` (a new P-256 key by default) issued by it.
    public static func make(now: Date, name: String = "Sesame Test U2F", key: PrivateKey? = nil) throws
        -> TestU2FAttestation
    {
        let start = now.addingTimeInterval(-86_400)
        let end = now.addingTimeInterval(5 * 365 * 86_400)
        let (rootKey, root) = try selfSignedRoot(name: name, from: start, until: end)
        let key = try key ?? PrivateKey.generate(.ec(.p256))
        let certificate = try X509CertificateIssuer.issue(
            .init(
                subject: [("C", "US"), ("O", name), ("CN", "\(name) Batch")], serialNumber: 11, notBefore: start,
                notAfter: end, isCA: false),
            subjectKey: key.publicKey, issuer: root, issuerKey: rootKey)
        return TestU2FAttestation(root: root, key: key, certificate: certificate)
    }

    /// What metadata lists for the model: the SHA-1 of the attestation key's uncompressed point
    /// (the certificate's subjectPublicKey bits), lowercase hex.
    public var keyIdentifier: String {
        guard case .ec(_, let x, let y) = key.publicKey.components else { return "" }
        return Digest.legacySHA1([0x04] + x + y).map { String(format: "%02x", $0) }.joined()
    }

    /// The registration response JSON of `registration` (made by the software authenticator with
    /// an all-zero AAGUID and a P-256 key) with its attestation replaced by a `fido-u2f` one that
    /// this attestation key signs: sig over 0x00 ‖ rpIdHash ‖ clientDataHash ‖ credentialId ‖
    /// 0x04 ‖ x ‖ y, x5c = the attestation certificate.
    public func attest(_ registration: RegistrationResult) throws -> String {
        guard case .ec(.p256, let x, let y) = registration.publicKey.components else {
            throw CryptoError.unsupportedAlgorithm("fido-u2f needs a P-256 credential key")
        }
        let authenticatorData = registration.authenticatorData
        let credentialID = authenticatorData.attestedCredentialData?.credentialID ?? []
        let signed =
            [0x00] + authenticatorData.rpIDHash + Digest.sha256(registration.credential.clientDataJSON) + credentialID
            + [0x04] + x + y
        let signature = try key.signature(for: signed, algorithm: .ecdsa(.sha256), format: .der)
        let attestationObject = CBOREncoder.encode(
            .map([
                CBORMapEntry(key: .text("fmt"), value: .text("fido-u2f")),
                CBORMapEntry(
                    key: .text("attStmt"),
                    value: .map([
                        CBORMapEntry(key: .text("sig"), value: .bytes(signature)),
                        CBORMapEntry(key: .text("x5c"), value: .array([.bytes(certificate.der)])),
                    ])),
                CBORMapEntry(key: .text("authData"), value: .bytes(authenticatorData.raw)),
            ]))
        let original = Base64URL.encode(registration.credential.attestationObject)
        guard registration.jsonString.contains("\"attestationObject\":\"\(original)\"") else {
            throw CryptoError.unsupportedAlgorithm("the registration JSON has no attestationObject to replace")
        }
        return registration.jsonString.replacingOccurrences(
            of: "\"attestationObject\":\"\(original)\"",
            with: "\"attestationObject\":\"\(Base64URL.encode(attestationObject))\"")
    }
}

/// Builds and signs FIDO metadata BLOBs the way FIDO does (a compact JWS with x5c), for tests.
public enum TestMetadataBLOB {
    /// One FIDO2 entry's JSON. `statuses` are (status, effectiveDate) in order.
    public static func entry(
        aaguid: [UInt8], description: String, roots: [X509Certificate],
        statuses: [(String, String)] = [("FIDO_CERTIFIED_L1", "2024-01-01")], icon: String? = nil,
        attestationTypes: [String] = ["basic_full"]
    ) -> JSONValue {
        var statement: [JSONMember] = [
            JSONMember(name: "aaguid", value: .string(AAGUIDRegistry.format(aaguid))),
            JSONMember(name: "description", value: .string(description)),
            JSONMember(name: "authenticatorVersion", value: .number("1")),
            JSONMember(name: "protocolFamily", value: .string("fido2")),
            JSONMember(name: "schema", value: .number("3")),
            JSONMember(name: "attestationTypes", value: .array(attestationTypes.map(JSONValue.string))),
            JSONMember(
                name: "attestationRootCertificates",
                value: .array(roots.map { .string(Data($0.der).base64EncodedString()) })),
        ]
        if let icon { statement.append(JSONMember(name: "icon", value: .string(icon))) }
        return .object(
            [
                JSONMember(name: "aaguid", value: .string(AAGUIDRegistry.format(aaguid))),
                JSONMember(name: "metadataStatement", value: .object(statement)),
            ] + statusMembers(statuses))
    }

    /// An entry's `statusReports` (status, effective date) and `timeOfLastStatusChange`.
    static func statusMembers(_ statuses: [(String, String)]) -> [JSONMember] {
        [
            JSONMember(
                name: "statusReports",
                value: .array(
                    statuses.map {
                        .object([
                            JSONMember(name: "status", value: .string($0.0)),
                            JSONMember(name: "effectiveDate", value: .string($0.1)),
                        ])
                    })),
            JSONMember(name: "timeOfLastStatusChange", value: .string(statuses.last?.1 ?? "2024-01-01")),
        ]
    }

    /// One U2F entry's JSON: the model named by its attestation certificates' key identifiers.
    public static func u2fEntry(
        keyIdentifiers: [String], description: String, roots: [X509Certificate],
        statuses: [(String, String)] = [("FIDO_CERTIFIED_L1", "2024-01-01")]
    ) -> JSONValue {
        let statement: [JSONMember] = [
            JSONMember(
                name: "attestationCertificateKeyIdentifiers", value: .array(keyIdentifiers.map(JSONValue.string))),
            JSONMember(name: "description", value: .string(description)),
            JSONMember(name: "authenticatorVersion", value: .number("2")),
            JSONMember(name: "protocolFamily", value: .string("u2f")),
            JSONMember(name: "schema", value: .number("3")),
            JSONMember(name: "attestationTypes", value: .array([.string("basic_full")])),
            JSONMember(
                name: "attestationRootCertificates",
                value: .array(roots.map { .string(Data($0.der).base64EncodedString()) })),
        ]
        return .object(
            [
                JSONMember(
                    name: "attestationCertificateKeyIdentifiers", value: .array(keyIdentifiers.map(JSONValue.string))),
                JSONMember(name: "metadataStatement", value: .object(statement)),
            ] + statusMembers(statuses))
    }

    /// The payload with these entries.
    public static func payload(serial: Int, nextUpdate: String, entries: [JSONValue]) -> JSONValue {
        .object([
            JSONMember(name: "legalHeader", value: .string("Test metadata, not for production.")),
            JSONMember(name: "no", value: .number(String(serial))),
            JSONMember(name: "nextUpdate", value: .string(nextUpdate)),
            JSONMember(name: "entries", value: .array(entries)),
        ])
    }

    /// The BLOB file: `payload` signed by the PKI's signer (ES256), x5c = signer, intermediate.
    public static func sign(_ payload: JSONValue, pki: TestPKI, alg: String = "ES256") throws -> [UInt8] {
        try sign(payloadBytes: payload.serialized, key: pki.signerKey, chain: [pki.signer, pki.intermediate], alg: alg)
    }

    /// A BLOB over raw payload bytes, signed by `key`, with `chain` as x5c.
    public static func sign(payloadBytes: [UInt8], key: PrivateKey, chain: [X509Certificate], alg: String = "ES256")
        throws -> [UInt8]
    {
        let header = JSONValue.object([
            JSONMember(name: "alg", value: .string(alg)),
            JSONMember(name: "typ", value: .string("JWT")),
            JSONMember(name: "x5c", value: .array(chain.map { .string(Data($0.der).base64EncodedString()) })),
        ])
        let signingInput = Base64URL.encode(header.serialized) + "." + Base64URL.encode(payloadBytes)
        let algorithm: SignatureAlgorithm
        switch alg {
        case "ES256": algorithm = .ecdsa(.sha256)
        case "ES384": algorithm = .ecdsa(.sha384)
        case "ES512": algorithm = .ecdsa(.sha512)
        case "RS256": algorithm = .rsaPKCS1v15(.sha256)
        case "PS256": algorithm = .rsaPSS(.sha256)
        // Any other name (a test of a refused alg) is signed as ES256 under that name.
        default: algorithm = .ecdsa(.sha256)
        }
        let signature = try key.signature(for: Array(signingInput.utf8), algorithm: algorithm, format: .raw)
        return Array((signingInput + "." + Base64URL.encode(signature)).utf8)
    }

    /// A 1×1 PNG as a data: URL.
    public static let pngIcon =
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
}

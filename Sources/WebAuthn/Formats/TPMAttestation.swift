import Foundation
import SesameCrypto

/// The `tpm` attestation statement format (WebAuthn Level 3 §8.3): a TPM 2.0 certifies the
/// credential key (`pubArea`) with its attestation identity key, whose certificate is `x5c[0]`.
public enum TPMAttestation: AttestationFormatVerifier {
    /// The `fmt` identifier.
    public static let format = "tpm"

    /// extendedKeyUsage tcg-kp-AIKCertificate (2.23.133.8.3), required in the AIK certificate.
    static let aikCertificateEKU = "2.23.133.8.3"

    /// TPM manufacturer ids of the TCG TPM Vendor ID Registry (version 1.06), in the
    /// "id:XXXXXXXX" form of the AIK certificate's subjectAlternativeName, upper-case hex.
    static let registeredVendors: Set<String> = [
        "id:414D4400",  // AMD
        "id:414E5400",  // Ant Group
        "id:41544D4C",  // Atmel
        "id:4252434D",  // Broadcom
        "id:4353434F",  // Cisco
        "id:464C5953",  // FlySlice Technologies
        "id:524F4343",  // Fuzhou Rockchip
        "id:474F4F47",  // Google
        "id:48504900",  // HP Inc.
        "id:48504500",  // HPE
        "id:48495349",  // Huawei
        "id:49424D00",  // IBM
        "id:49465800",  // Infineon
        "id:494E5443",  // Intel
        "id:4C454E00",  // Lenovo
        "id:4D534654",  // Microsoft
        "id:4E534D20",  // National Semiconductor
        "id:4E545A00",  // Nationz
        "id:4E544300",  // Nuvoton Technology
        "id:51434F4D",  // Qualcomm
        "id:534D534E",  // Samsung
        "id:534E5300",  // Sinosun
        "id:534D5343",  // SMSC
        "id:53544D20",  // ST Microelectronics
        "id:54584E00",  // Texas Instruments
        "id:57454300",  // Winbond
    ]

    /// Whether `manufacturer` ("id:XXXXXXXX", any hex case) is in the TCG vendor registry.
    public static func isRegisteredVendor(_ manufacturer: String) -> Bool {
        registeredVendors.contains(manufacturer.uppercased().replacingOccurrences(of: "ID:", with: "id:"))
    }

    /// Verifies a `tpm` statement; the result is AttCA with the AIK certificate path.
    public static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        let statement = input.statement
        // §8.3 step 1: attStmt is CBOR of the tpmStmtFormat syntax; extract its fields.
        let version = try FormatStatementSupport.text(statement, "ver", format: format)
        guard version == "2.0" else {
            throw WebAuthnError(.attestationStatement, "tpm: ver is \"\(version)\", not \"2.0\"")
        }
        let algorithm = try FormatStatementSupport.algorithm(statement, format: format)
        let signature = try FormatStatementSupport.bytes(statement, "sig", format: format)
        let certInfoBytes = try FormatStatementSupport.bytes(statement, "certInfo", format: format)
        let pubAreaBytes = try FormatStatementSupport.bytes(statement, "pubArea", format: format)
        if statement[textKey: "ecdaaKeyId"] != nil {
            throw WebAuthnError(.attestationStatement, "tpm: ECDAA (ecdaaKeyId) is not supported; Level 3 removed it")
        }
        let certificates = try AttestationChain.certificates(from: statement, format: format)
        guard let aikCertificate = certificates.first else {
            throw WebAuthnError(.attestationStatement, "tpm: x5c is empty")
        }
        let attested = try FormatStatementSupport.attestedCredential(input, format: format)

        // §8.3 step 2: the key in pubArea's parameters and unique is the credentialPublicKey.
        let pubArea = try TPMStructures.PublicArea(bytes: pubAreaBytes)
        try checkKey(pubArea, matches: attested.credentialPublicKey)

        // §8.3 step 3: attToBeSigned = authenticatorData ‖ clientDataHash.
        let attToBeSigned = input.authenticatorData.raw + input.clientDataHash

        // §8.3 step 4: certInfo is valid. The parser enforces magic == TPM_GENERATED_VALUE and
        // type == TPM_ST_ATTEST_CERTIFY.
        let certInfo = try TPMStructures.CertifyInfo(bytes: certInfoBytes)
        // extraData is the hash of attToBeSigned with the hash of "alg".
        guard let statementHash = FormatStatementSupport.hash(for: algorithm) else {
            throw WebAuthnError(.algorithm, "tpm: alg \(algorithm.rawValue) has no hash for extraData")
        }
        guard certInfo.extraData == Digest.hash(attToBeSigned, with: statementHash) else {
            throw WebAuthnError(
                .attestationStatement, "tpm: certInfo.extraData is not the hash of authenticatorData ‖ clientDataHash")
        }
        // attested.name is a valid Name for pubArea: nameAlg ‖ H_nameAlg(pubArea) (TPM Part 1 §16).
        guard let nameHash = TPMStructures.hashAlgorithm(pubArea.nameAlg) else {
            throw WebAuthnError(
                .attestationStatement,
                "tpm: pubArea.nameAlg 0x\(String(pubArea.nameAlg, radix: 16)) is not a supported hash")
        }
        let expectedName =
            [UInt8(pubArea.nameAlg >> 8), UInt8(pubArea.nameAlg & 0xff)] + Digest.hash(pubAreaBytes, with: nameHash)
        guard certInfo.attestedName == expectedName else {
            throw WebAuthnError(.attestationStatement, "tpm: certInfo.attested.name is not the Name of pubArea")
        }
        // qualifiedSigner, clockInfo and firmwareVersion are ignored, as the spec allows.

        // §8.3 step 5 (x5c present): sig is a valid signature over certInfo with the AIK key and
        // "alg". RS1 is accepted here only because TPMs of the SHA-1 era still sign with it.
        let aikKey = try FormatStatementSupport.publicKey(of: aikCertificate, format: format)
        try FormatStatementSupport.verifySignature(
            signature, over: certInfoBytes, key: aikKey, algorithm: algorithm.signatureAlgorithm,
            format: format, what: "sig over certInfo")
        // aikCert meets the requirements of §8.3.1.
        try checkAIKCertificate(aikCertificate, policy: input.policy)
        // If aikCert carries id-fido-gen-ce-aaguid, it matches the AAGUID in authenticatorData.
        let certificateAAGUID: [UInt8]?
        do {
            certificateAAGUID = try aikCertificate.fidoAAGUID()
        } catch {
            throw WebAuthnError(
                .attestationStatement, "tpm: the AIK certificate's AAGUID extension is malformed: \(error)")
        }
        if let certificateAAGUID, certificateAAGUID != attested.aaguid {
            throw WebAuthnError(
                .aaguidExtension,
                "tpm: the AIK certificate's AAGUID extension does not match authenticatorData's AAGUID")
        }

        // §7.1 steps 21–23: the trust path must be valid now and chain to a configured anchor.
        try AttestationChain.checkValidity(certificates, format: format, now: input.now)
        let (chainVerified, chainNote) = try AttestationChain.check(
            certificates, format: format, policy: input.policy, now: input.now)
        // §8.3 step 5: return AttCA with trust path x5c.
        return AttestationResult(
            format: format, type: .attCA, certificates: certificates, chainVerified: chainVerified, chainNote: chainNote
        )
    }

    /// §8.3 step 2: pubArea's key equals the credential key (RSA modulus and exponent, or the
    /// ECC curve and point).
    static func checkKey(_ pubArea: TPMStructures.PublicArea, matches credentialKey: COSEKey) throws(WebAuthnError) {
        switch (pubArea.key, credentialKey.components) {
        case (.rsa(_, let exponent, let modulus), .rsa(let credentialModulus, let credentialExponent)):
            let exponentBytes = [
                UInt8(exponent >> 24), UInt8((exponent >> 16) & 0xff), UInt8((exponent >> 8) & 0xff),
                UInt8(exponent & 0xff),
            ]
            guard FormatStatementSupport.stripped(modulus) == FormatStatementSupport.stripped(credentialModulus) else {
                throw WebAuthnError(
                    .attestationStatement, "tpm: pubArea.unique (RSA modulus) does not match credentialPublicKey")
            }
            guard FormatStatementSupport.stripped(exponentBytes) == FormatStatementSupport.stripped(credentialExponent)
            else {
                throw WebAuthnError(.attestationStatement, "tpm: pubArea exponent does not match credentialPublicKey")
            }
        case (.ecc(let curveID, let x, let y), .ec(let curve, let credentialX, let credentialY)):
            guard let pubAreaCurve = TPMStructures.curve(curveID) else {
                throw WebAuthnError(
                    .attestationStatement, "tpm: pubArea.curveID 0x\(String(curveID, radix: 16)) is not supported")
            }
            guard pubAreaCurve == curve else {
                throw WebAuthnError(
                    .attestationStatement,
                    "tpm: pubArea curve \(pubAreaCurve.rawValue) does not match credentialPublicKey's \(curve.rawValue)"
                )
            }
            guard
                FormatStatementSupport.sameKey(
                    .ec(curve: curve, x: x, y: y), .ec(curve: curve, x: credentialX, y: credentialY))
            else {
                throw WebAuthnError(
                    .attestationStatement, "tpm: pubArea.unique (ECC point) does not match credentialPublicKey")
            }
        default:
            throw WebAuthnError(.attestationStatement, "tpm: pubArea key type does not match credentialPublicKey")
        }
    }

    /// §8.3.1 TPM attestation statement certificate requirements for the AIK certificate.
    static func checkAIKCertificate(_ certificate: X509Certificate, policy: AttestationPolicy) throws(WebAuthnError) {
        // Version MUST be set to 3.
        guard certificate.version == 3 else {
            throw WebAuthnError(.attestationStatement, "tpm: AIK certificate version is \(certificate.version), not 3")
        }
        // Subject field MUST be set to empty.
        guard certificate.subject.attributes.isEmpty else {
            throw WebAuthnError(
                .attestationStatement, "tpm: AIK certificate subject is not empty (\(certificate.subject))")
        }
        // The Subject Alternative Name extension MUST be set as defined in [TPMv2-EK-Profile] §3.2.9.
        let device: TPMDeviceAttributes?
        do {
            device = try certificate.tpmDeviceAttributes()
        } catch {
            throw WebAuthnError(
                .attestationStatement, "tpm: AIK certificate subjectAlternativeName is malformed: \(error)")
        }
        guard let device else {
            throw WebAuthnError(
                .attestationStatement,
                "tpm: AIK certificate has no TPM manufacturer/model/version subjectAlternativeName")
        }
        // The manufacturer is a TCG-registered vendor id unless the policy accepts others
        // (the FIDO conformance vendor id:FFFFF1D0, the spec vector's id:00000000).
        if !policy.acceptUnregisteredTPMVendors && !isRegisteredVendor(device.manufacturer) {
            throw WebAuthnError(
                .attestationStatement, "tpm: TPM manufacturer \(device.manufacturer) is not in the TCG vendor registry")
        }
        // The Extended Key Usage extension MUST contain tcg-kp-AIKCertificate (2.23.133.8.3).
        let usages: [String]
        do {
            usages = try certificate.extendedKeyUsage()
        } catch {
            throw WebAuthnError(.attestationStatement, "tpm: AIK certificate extendedKeyUsage is malformed: \(error)")
        }
        guard usages.contains(aikCertificateEKU) else {
            throw WebAuthnError(
                .attestationStatement,
                "tpm: AIK certificate extendedKeyUsage lacks tcg-kp-AIKCertificate (2.23.133.8.3)")
        }
        // The Basic Constraints extension MUST have the CA component set to false.
        guard let constraints = certificate.basicConstraints else {
            throw WebAuthnError(.attestationStatement, "tpm: AIK certificate has no basicConstraints extension")
        }
        guard !constraints.isCA else {
            throw WebAuthnError(.attestationStatement, "tpm: AIK certificate basicConstraints says CA")
        }
    }
}

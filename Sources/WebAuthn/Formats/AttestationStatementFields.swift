import SesameCrypto

/// Reading the members attestation statements share, and checking their signatures.
enum AttestationStatementFields {
    /// `attStmt.alg`: a COSE algorithm the core knows (RS1 included: legacy TPM and packed use it).
    static func algorithm(_ statement: CBORValue, format: String) throws(WebAuthnError) -> COSEAlgorithm {
        guard let value = statement[textKey: "alg"]?.intValue else {
            throw WebAuthnError(.attestationStatement, "\(format): attStmt.alg must be an integer")
        }
        guard let raw = Int(exactly: value), let algorithm = COSEAlgorithm(rawValue: raw) else {
            throw WebAuthnError(.algorithm, "\(format): attStmt.alg \(value) is not a supported COSE algorithm")
        }
        return algorithm
    }

    /// A required byte-string member, e.g. `sig`.
    static func bytes(_ statement: CBORValue, _ name: String, format: String) throws(WebAuthnError) -> [UInt8] {
        guard let value = statement[textKey: name]?.bytesValue else {
            throw WebAuthnError(.attestationStatement, "\(format): attStmt.\(name) must be a byte string")
        }
        return value
    }

    /// Verifies `signature` over `message` with `key`; every failure is a `.signature` error.
    static func verifySignature(
        _ signature: [UInt8], over message: [UInt8], key: PublicKey, algorithm: COSEAlgorithm, format: String,
        what: String = "attestation signature"
    ) throws(WebAuthnError) {
        let valid: Bool
        do {
            valid = try key.isValidSignature(signature, for: message, algorithm: algorithm.signatureAlgorithm)
        } catch {
            throw WebAuthnError(.signature, "\(format): \(what) cannot be checked with \(algorithm.name): \(error)")
        }
        guard valid else { throw WebAuthnError(.signature, "\(format): \(what) is not valid") }
    }

    /// The leaf certificate's public key.
    static func leafKey(_ certificate: X509Certificate, format: String) throws(WebAuthnError) -> PublicKey {
        do {
            return try certificate.publicKey()
        } catch {
            throw WebAuthnError(.attestationStatement, "\(format): attestation certificate key is unusable: \(error)")
        }
    }

    /// authenticatorData ‖ clientDataHash, what most formats sign.
    static func signedData(_ input: AttestationInput) -> [UInt8] {
        var data = input.authenticatorData.raw
        data.append(contentsOf: input.clientDataHash)
        return data
    }

    /// The credential's public key from the attested credential data.
    static func credentialKey(_ input: AttestationInput, format: String) throws(WebAuthnError) -> COSEKey {
        guard let attested = input.authenticatorData.attestedCredentialData else {
            throw WebAuthnError(.malformed, "\(format): authenticator data has no attested credential data")
        }
        return attested.credentialPublicKey
    }

    /// §8.2.1/§8.3.1: the AAGUID extension, when present, must equal the attested AAGUID and not be critical.
    static func checkAAGUIDExtension(
        _ certificate: X509Certificate, input: AttestationInput, format: String
    ) throws(WebAuthnError) {
        let extensionAAGUID: [UInt8]?
        do {
            extensionAAGUID = try certificate.fidoAAGUID()
        } catch {
            throw WebAuthnError(.aaguidExtension, "\(format): the FIDO AAGUID certificate extension is malformed")
        }
        guard let extensionAAGUID else { return }
        if certificate.extension(oid: "1.3.6.1.4.1.45724.1.1.4")?.critical == true {
            throw WebAuthnError(
                .aaguidExtension, "\(format): the FIDO AAGUID certificate extension must not be critical")
        }
        guard extensionAAGUID == input.authenticatorData.attestedCredentialData?.aaguid else {
            throw WebAuthnError(
                .aaguidExtension, "\(format): certificate AAGUID differs from the authenticator data AAGUID")
        }
    }

    /// Whether two public keys are the same key.
    static func sameKey(_ credential: COSEKey, _ key: PublicKey) -> Bool {
        credential.components == key.components
    }
}

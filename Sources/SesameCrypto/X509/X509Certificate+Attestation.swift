// The attestation extensions WebAuthn reads from certificates. libcrypto finds the extensions;
// their small bodies are read with the strict `DERReader`.
internal import COpenSSL
internal import CShims

extension X509Certificate {
    /// OID of the FIDO AAGUID extension (id-fido-gen-ce-aaguid).
    static let fidoAAGUIDOID = "1.3.6.1.4.1.45724.1.1.4"
    /// OID of Apple's anonymous attestation nonce extension.
    static let appleNonceOID = "1.2.840.113635.100.8.2"

    /// The FIDO AAGUID extension (1.3.6.1.4.1.45724.1.1.4): 16 bytes, nil when absent, throws when malformed.
    public func fidoAAGUID() throws -> [UInt8]? {
        guard let ext = try uniqueExtension(oid: Self.fidoAAGUIDOID) else { return nil }
        return try Self.fidoAAGUID(extensionValue: ext.value)
    }

    /// Parses the AAGUID extension's extnValue contents: an OCTET STRING of exactly 16 bytes.
    static func fidoAAGUID(extensionValue: [UInt8]) throws(CryptoError) -> [UInt8] {
        var reader = try DERReader(extensionValue)
        let aaguid = try reader.readOctetString()
        try reader.expectEnd("the AAGUID extension")
        guard aaguid.count == 16 else {
            throw CryptoError.certificate("AAGUID extension holds \(aaguid.count) bytes, not 16")
        }
        return aaguid
    }

    /// The Apple anonymous attestation nonce (1.2.840.113635.100.8.2), nil when absent, throws
    /// when malformed. Structure: SEQUENCE { [1] EXPLICIT OCTET STRING nonce }.
    public func appleNonce() throws -> [UInt8]? {
        guard let ext = try uniqueExtension(oid: Self.appleNonceOID) else { return nil }
        return try Self.appleNonce(extensionValue: ext.value)
    }

    /// Parses the Apple nonce extension's extnValue contents.
    static func appleNonce(extensionValue: [UInt8]) throws(CryptoError) -> [UInt8] {
        var top = try DERReader(extensionValue)
        let sequence = try top.readElement(.sequence)
        try top.expectEnd("the Apple nonce extension")
        var fields = try sequence.contentsReader()
        let tagged = try fields.readElement(.explicit(1))
        try fields.expectEnd("the Apple nonce")
        var inner = try tagged.contentsReader()
        let nonce = try inner.readOctetString()
        try inner.expectEnd("the Apple nonce OCTET STRING")
        return nonce
    }

    /// The Android key attestation extension, nil when absent, throws when malformed.
    public func androidKeyDescription() throws -> AndroidKeyDescription? {
        guard let ext = try uniqueExtension(oid: AndroidKeyDescription.oid) else { return nil }
        return try AndroidKeyDescription(der: ext.value)
    }

    /// TPM manufacturer/model/version from the subjectAlternativeName, nil when absent. The three
    /// attributes are read from every directoryName entry, whether they sit in three RDNs or in one
    /// multi-valued RDN. Throws when the SAN is malformed or an attribute is missing or repeated.
    public func tpmDeviceAttributes() throws -> TPMDeviceAttributes? {
        var critical: Int32 = 0
        guard let raw = X509_get_ext_d2i(handle, NID_subject_alt_name, &critical, nil) else {
            ERR_clear_error()
            if critical == -1 { return nil }
            throw CryptoError.certificate("malformed or repeated subjectAlternativeName")
        }
        let names = OpaquePointer(raw)
        defer { GENERAL_NAMES_free(names) }
        var found: [String: String] = [:]
        let wanted = [
            TPMDeviceAttributes.manufacturerOID, TPMDeviceAttributes.modelOID, TPMDeviceAttributes.versionOID,
        ]
        let count = sesame_sk_GENERAL_NAME_num(names)
        for index in 0..<max(count, 0) {
            guard let name = sesame_sk_GENERAL_NAME_value(names, index), name.pointee.type == GEN_DIRNAME else {
                continue
            }
            for attribute in X509Support.attributes(of: name.pointee.d.directoryName)
            where wanted.contains(attribute.oid) {
                guard found[attribute.oid] == nil else {
                    throw CryptoError.certificate("TPM attribute \(attribute.oid) appears more than once")
                }
                found[attribute.oid] = attribute.value
            }
        }
        guard let manufacturer = found[TPMDeviceAttributes.manufacturerOID],
            let model = found[TPMDeviceAttributes.modelOID],
            let version = found[TPMDeviceAttributes.versionOID]
        else {
            throw CryptoError.certificate("subjectAlternativeName lacks the TPM manufacturer, model or version")
        }
        return TPMDeviceAttributes(manufacturer: manufacturer, model: model, version: version)
    }
}

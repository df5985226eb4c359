import SesameCrypto

/// The TPM 2.0 structures a `tpm` attestation statement carries (TPM 2.0 Library Part 2), parsed
/// strictly: big-endian, every length checked against the bytes that remain, no trailing bytes.
public enum TPMStructures {
    /// TPM_GENERATED_VALUE, the `magic` of every structure the TPM itself signs.
    public static let generatedValue: UInt32 = 0xff54_4347
    /// TPM_ST_ATTEST_CERTIFY, the `type` of a TPM2_Certify result.
    public static let attestCertify: UInt16 = 0x8017

    /// TPM_ALG_ID values the parsers and the `tpm` verifier use (Part 2 §6.3).
    public enum AlgorithmID {
        /// TPM_ALG_RSA.
        public static let rsa: UInt16 = 0x0001
        /// TPM_ALG_SHA1.
        public static let sha1: UInt16 = 0x0004
        /// TPM_ALG_AES.
        public static let aes: UInt16 = 0x0006
        /// TPM_ALG_MGF1.
        public static let mgf1: UInt16 = 0x0007
        /// TPM_ALG_SHA256.
        public static let sha256: UInt16 = 0x000B
        /// TPM_ALG_SHA384.
        public static let sha384: UInt16 = 0x000C
        /// TPM_ALG_SHA512.
        public static let sha512: UInt16 = 0x000D
        /// TPM_ALG_NULL.
        public static let null: UInt16 = 0x0010
        /// TPM_ALG_SM4.
        public static let sm4: UInt16 = 0x0013
        /// TPM_ALG_RSASSA.
        public static let rsassa: UInt16 = 0x0014
        /// TPM_ALG_RSAES.
        public static let rsaes: UInt16 = 0x0015
        /// TPM_ALG_RSAPSS.
        public static let rsapss: UInt16 = 0x0016
        /// TPM_ALG_OAEP.
        public static let oaep: UInt16 = 0x0017
        /// TPM_ALG_ECDSA.
        public static let ecdsa: UInt16 = 0x0018
        /// TPM_ALG_ECDH.
        public static let ecdh: UInt16 = 0x0019
        /// TPM_ALG_ECDAA.
        public static let ecdaa: UInt16 = 0x001A
        /// TPM_ALG_SM2.
        public static let sm2: UInt16 = 0x001B
        /// TPM_ALG_ECSCHNORR.
        public static let ecschnorr: UInt16 = 0x001C
        /// TPM_ALG_ECMQV.
        public static let ecmqv: UInt16 = 0x001D
        /// TPM_ALG_KDF1_SP800_56A.
        public static let kdf1SP800_56A: UInt16 = 0x0020
        /// TPM_ALG_KDF2.
        public static let kdf2: UInt16 = 0x0021
        /// TPM_ALG_KDF1_SP800_108.
        public static let kdf1SP800_108: UInt16 = 0x0022
        /// TPM_ALG_ECC.
        public static let ecc: UInt16 = 0x0023
        /// TPM_ALG_CAMELLIA.
        public static let camellia: UInt16 = 0x0026
    }

    /// The hash a TPM_ALG_ID names, for the hashes a Name may use (Part 1 §16).
    public static func hashAlgorithm(_ id: UInt16) -> HashAlgorithm? {
        switch id {
        case AlgorithmID.sha1: return .legacySHA1
        case AlgorithmID.sha256: return .sha256
        case AlgorithmID.sha384: return .sha384
        case AlgorithmID.sha512: return .sha512
        default: return nil
        }
    }

    /// The curve a TPM_ECC_CURVE value names (Part 2 §6.4).
    public static func curve(_ id: UInt16) -> Curve? {
        switch id {
        case 0x0003: return .p256
        case 0x0004: return .p384
        case 0x0005: return .p521
        default: return nil
        }
    }

    /// TPMS_ATTEST (Part 2 §10.12.12) whose `attested` member is TPMS_CERTIFY_INFO: the
    /// `certInfo` of a `tpm` statement. Parsing rejects any magic other than TPM_GENERATED_VALUE
    /// and any type other than TPM_ST_ATTEST_CERTIFY.
    public struct CertifyInfo: Sendable, Hashable {
        /// `magic`; always TPM_GENERATED_VALUE once parsed.
        public var magic: UInt32
        /// `type`; always TPM_ST_ATTEST_CERTIFY once parsed.
        public var type: UInt16
        /// `qualifiedSigner` (TPM2B_NAME contents).
        public var qualifiedSigner: [UInt8]
        /// `extraData` (TPM2B_DATA contents): the hash of authenticatorData ‖ clientDataHash.
        public var extraData: [UInt8]
        /// `clockInfo.clock`.
        public var clock: UInt64
        /// `clockInfo.resetCount`.
        public var resetCount: UInt32
        /// `clockInfo.restartCount`.
        public var restartCount: UInt32
        /// `clockInfo.safe`.
        public var safe: Bool
        /// `firmwareVersion`.
        public var firmwareVersion: UInt64
        /// `attested.certify.name` (TPM2B_NAME contents): nameAlg ‖ digest of the certified object.
        public var attestedName: [UInt8]
        /// `attested.certify.qualifiedName` (TPM2B_NAME contents).
        public var attestedQualifiedName: [UInt8]

        /// Parses `certInfo`.
        public init(bytes: [UInt8]) throws(WebAuthnError) {
            var reader = Reader(bytes, structure: "certInfo")
            magic = try reader.u32("magic")
            guard magic == TPMStructures.generatedValue else {
                throw reader.error("magic is 0x\(String(magic, radix: 16)), not TPM_GENERATED_VALUE")
            }
            type = try reader.u16("type")
            guard type == TPMStructures.attestCertify else {
                throw reader.error("type is 0x\(String(type, radix: 16)), not TPM_ST_ATTEST_CERTIFY")
            }
            qualifiedSigner = try reader.sized("qualifiedSigner")
            extraData = try reader.sized("extraData")
            clock = try reader.u64("clockInfo.clock")
            resetCount = try reader.u32("clockInfo.resetCount")
            restartCount = try reader.u32("clockInfo.restartCount")
            // §8.3 ignores clockInfo; the spec's own test vector fills it with arbitrary bytes, so
            // any non-zero `safe` reads as YES rather than failing.
            safe = try reader.u8("clockInfo.safe") != 0
            firmwareVersion = try reader.u64("firmwareVersion")
            attestedName = try reader.sized("attested.name")
            attestedQualifiedName = try reader.sized("attested.qualifiedName")
            try reader.finish()
        }
    }

    /// TPMT_PUBLIC (Part 2 §12.2.4) for an RSA or ECC key: the `pubArea` of a `tpm` statement.
    public struct PublicArea: Sendable, Hashable {
        /// The key-type specific parameters and public value.
        public enum Key: Sendable, Hashable {
            /// TPM_ALG_RSA: TPMS_RSA_PARMS.keyBits, the exponent (0 already replaced by 65537)
            /// and `unique` (the modulus).
            case rsa(keyBits: UInt16, exponent: UInt32, modulus: [UInt8])
            /// TPM_ALG_ECC: TPMS_ECC_PARMS.curveID and `unique` (the point).
            case ecc(curveID: UInt16, x: [UInt8], y: [UInt8])
        }

        /// `type` (TPM_ALG_RSA or TPM_ALG_ECC).
        public var type: UInt16
        /// `nameAlg`: the hash of this object's Name.
        public var nameAlg: UInt16
        /// `objectAttributes` (TPMA_OBJECT bits).
        public var objectAttributes: UInt32
        /// `authPolicy` (TPM2B_DIGEST contents).
        public var authPolicy: [UInt8]
        /// `parameters.symmetric.algorithm` (TPM_ALG_NULL for signing keys).
        public var symmetric: UInt16
        /// `parameters.scheme.scheme` (TPM_ALG_NULL when the key is not bound to one).
        public var scheme: UInt16
        /// The parameters and `unique` member that define the key.
        public var key: Key

        /// Parses `pubArea`.
        public init(bytes: [UInt8]) throws(WebAuthnError) {
            var reader = Reader(bytes, structure: "pubArea")
            type = try reader.u16("type")
            guard type == AlgorithmID.rsa || type == AlgorithmID.ecc else {
                throw reader.error("type 0x\(String(type, radix: 16)) is neither TPM_ALG_RSA nor TPM_ALG_ECC")
            }
            nameAlg = try reader.u16("nameAlg")
            objectAttributes = try reader.u32("objectAttributes")
            authPolicy = try reader.sized("authPolicy")
            // TPMT_SYM_DEF_OBJECT: a block cipher carries keyBits and mode; NULL carries nothing.
            symmetric = try reader.u16("parameters.symmetric.algorithm")
            switch symmetric {
            case AlgorithmID.null: break
            case AlgorithmID.aes, AlgorithmID.sm4, AlgorithmID.camellia:
                _ = try reader.u16("parameters.symmetric.keyBits")
                _ = try reader.u16("parameters.symmetric.mode")
            default:
                throw reader.error("parameters.symmetric.algorithm 0x\(String(symmetric, radix: 16)) is not supported")
            }
            scheme = try reader.u16("parameters.scheme.scheme")
            if type == AlgorithmID.rsa {
                // TPMT_RSA_SCHEME: the signing and OAEP schemes carry a hashAlg.
                switch scheme {
                case AlgorithmID.null, AlgorithmID.rsaes: break
                case AlgorithmID.rsassa, AlgorithmID.rsapss, AlgorithmID.oaep:
                    _ = try reader.u16("parameters.scheme.hashAlg")
                default:
                    throw reader.error("parameters.scheme 0x\(String(scheme, radix: 16)) is not an RSA scheme")
                }
                let keyBits = try reader.u16("parameters.keyBits")
                let exponent = try reader.u32("parameters.exponent")
                let modulus = try reader.sized("unique")
                // Part 2 §12.2.3.5: an exponent of zero means the default, 2^16 + 1.
                key = .rsa(keyBits: keyBits, exponent: exponent == 0 ? 65_537 : exponent, modulus: modulus)
            } else {
                // TPMT_ECC_SCHEME: ECDAA carries hashAlg and count, the others only hashAlg.
                switch scheme {
                case AlgorithmID.null: break
                case AlgorithmID.ecdaa:
                    _ = try reader.u16("parameters.scheme.hashAlg")
                    _ = try reader.u16("parameters.scheme.count")
                case AlgorithmID.ecdsa, AlgorithmID.ecdh, AlgorithmID.sm2, AlgorithmID.ecschnorr, AlgorithmID.ecmqv:
                    _ = try reader.u16("parameters.scheme.hashAlg")
                default:
                    throw reader.error("parameters.scheme 0x\(String(scheme, radix: 16)) is not an ECC scheme")
                }
                let curveID = try reader.u16("parameters.curveID")
                // TPMT_KDF_SCHEME: every KDF but NULL carries a hashAlg.
                let kdf = try reader.u16("parameters.kdf.scheme")
                switch kdf {
                case AlgorithmID.null: break
                case AlgorithmID.mgf1, AlgorithmID.kdf1SP800_56A, AlgorithmID.kdf2, AlgorithmID.kdf1SP800_108:
                    _ = try reader.u16("parameters.kdf.hashAlg")
                default:
                    throw reader.error("parameters.kdf 0x\(String(kdf, radix: 16)) is not a KDF scheme")
                }
                let x = try reader.sized("unique.x")
                let y = try reader.sized("unique.y")
                key = .ecc(curveID: curveID, x: x, y: y)
            }
            try reader.finish()
        }
    }

    /// A bounds-checked big-endian reader over one structure's bytes.
    struct Reader {
        private let bytes: [UInt8]
        private let structure: String
        private var offset = 0

        init(_ bytes: [UInt8], structure: String) {
            self.bytes = bytes
            self.structure = structure
        }

        func error(_ message: String) -> WebAuthnError {
            WebAuthnError(.attestationStatement, "tpm: \(structure): \(message)")
        }

        private mutating func take(_ count: Int, _ field: String) throws(WebAuthnError) -> ArraySlice<UInt8> {
            guard count >= 0, count <= bytes.count - offset else {
                throw error("\(field) needs \(count) bytes at offset \(offset), \(bytes.count - offset) remain")
            }
            let slice = bytes[offset..<(offset + count)]
            offset += count
            return slice
        }

        private mutating func integer(_ size: Int, _ field: String) throws(WebAuthnError) -> UInt64 {
            var value: UInt64 = 0
            for byte in try take(size, field) { value = value << 8 | UInt64(byte) }
            return value
        }

        mutating func u8(_ field: String) throws(WebAuthnError) -> UInt8 {
            UInt8(truncatingIfNeeded: try integer(1, field))
        }

        mutating func u16(_ field: String) throws(WebAuthnError) -> UInt16 {
            UInt16(truncatingIfNeeded: try integer(2, field))
        }

        mutating func u32(_ field: String) throws(WebAuthnError) -> UInt32 {
            UInt32(truncatingIfNeeded: try integer(4, field))
        }

        mutating func u64(_ field: String) throws(WebAuthnError) -> UInt64 {
            try integer(8, field)
        }

        /// A TPM2B: a 16-bit size followed by that many bytes.
        mutating func sized(_ field: String) throws(WebAuthnError) -> [UInt8] {
            let size = Int(try u16("\(field).size"))
            return Array(try take(size, field))
        }

        func finish() throws(WebAuthnError) {
            guard offset == bytes.count else {
                throw error("\(bytes.count - offset) trailing bytes after the structure")
            }
        }
    }
}

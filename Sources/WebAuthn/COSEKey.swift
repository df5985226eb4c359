import SesameCrypto

/// A COSE_Key (RFC 9052/9053) holding a credential public key.
public struct COSEKey: Sendable, Hashable {
    /// COSE key types (RFC 9053 §7) that WebAuthn credentials use.
    public enum KeyType: Int, Sendable, Hashable {
        /// Octet key pair (Ed25519).
        case okp = 1
        /// Elliptic curve with x and y coordinates.
        case ec2 = 2
        /// RSA.
        case rsa = 3
    }

    /// The `kty` (1) parameter.
    public var keyType: KeyType
    /// The `alg` (3) parameter; required for WebAuthn credential keys.
    public var algorithm: COSEAlgorithm
    /// The public parameters.
    public var components: PublicKeyComponents
    /// The exact CBOR bytes this key was decoded from (or encoded to).
    public var encoded: [UInt8]

    // COSE labels (RFC 9052 §7.1, RFC 9053 §7.1–7.2, RFC 8230 §4).
    private static let labelKeyType = 1
    private static let labelAlgorithm = 3
    private static let labelCurve = -1
    private static let labelX = -2
    private static let labelY = -3
    private static let labelPrivateEC = -4
    private static let labelModulus = -1
    private static let labelExponent = -2
    private static let labelPrivateRSA = -3

    /// Parses and validates a COSE_Key map (kty/alg/crv consistency, coordinate sizes).
    ///
    /// An unknown key type, algorithm or curve, or an algorithm that does not fit the key, throws
    /// `.algorithm`; a missing or mistyped parameter throws `.malformed`.
    public init(cbor: CBORValue, encoded: [UInt8]) throws(WebAuthnError) {
        guard case .map = cbor else { throw Self.malformed("is not a CBOR map") }
        let kty = try Self.integer(cbor, Self.labelKeyType, name: "kty (1)")
        guard let keyType = Int(exactly: kty).flatMap(KeyType.init(rawValue:)) else {
            throw WebAuthnError(.algorithm, "COSE key: unsupported key type \(kty)")
        }
        let alg = try Self.integer(cbor, Self.labelAlgorithm, name: "alg (3)")
        guard let algorithm = Int(exactly: alg).flatMap(COSEAlgorithm.init(rawValue:)) else {
            throw WebAuthnError(.algorithm, "COSE key: unsupported algorithm \(alg)")
        }
        guard algorithm.keyType == keyType else {
            throw WebAuthnError(
                .algorithm,
                "COSE key: \(algorithm.name) needs kty \(algorithm.keyType.rawValue), the key has kty \(kty)")
        }

        switch keyType {
        case .ec2:
            let crv = try Self.integer(cbor, Self.labelCurve, name: "crv (-1)")
            let curve: Curve
            switch crv {
            case 1: curve = .p256
            case 2: curve = .p384
            case 3: curve = .p521
            default: throw WebAuthnError(.algorithm, "COSE key: unsupported EC2 curve \(crv)")
            }
            if let required = algorithm.requiredCurve, required != curve {
                throw WebAuthnError(
                    .algorithm,
                    "COSE key: \(algorithm.name) requires \(required.rawValue), the key is on \(curve.rawValue)")
            }
            if cbor[intKey: Self.labelPrivateEC] != nil {
                throw Self.malformed("carries a private key (-4)")
            }
            guard case .bytes(let x)? = cbor[intKey: Self.labelX] else {
                throw Self.malformed("x (-2) is missing or not a byte string")
            }
            guard case .bytes(let y)? = cbor[intKey: Self.labelY] else {
                throw Self.malformed("y (-3) is missing or not a byte string (compressed points are not allowed)")
            }
            guard x.count == curve.coordinateSize else {
                throw Self.malformed("x (-2) is \(x.count) bytes; \(curve.rawValue) needs \(curve.coordinateSize)")
            }
            guard y.count == curve.coordinateSize else {
                throw Self.malformed("y (-3) is \(y.count) bytes; \(curve.rawValue) needs \(curve.coordinateSize)")
            }
            components = .ec(curve: curve, x: x, y: y)
        case .okp:
            let crv = try Self.integer(cbor, Self.labelCurve, name: "crv (-1)")
            guard crv == 6 else { throw WebAuthnError(.algorithm, "COSE key: unsupported OKP curve \(crv)") }
            if cbor[intKey: Self.labelPrivateEC] != nil {
                throw Self.malformed("carries a private key (-4)")
            }
            guard case .bytes(let x)? = cbor[intKey: Self.labelX] else {
                throw Self.malformed("x (-2) is missing or not a byte string")
            }
            guard x.count == 32 else { throw Self.malformed("x (-2) is \(x.count) bytes; Ed25519 needs 32") }
            components = .ed25519(x)
        case .rsa:
            if cbor[intKey: Self.labelPrivateRSA] != nil {
                throw Self.malformed("carries a private key (-3)")
            }
            guard case .bytes(let n)? = cbor[intKey: Self.labelModulus], !n.isEmpty else {
                throw Self.malformed("n (-1) is missing, empty or not a byte string")
            }
            guard case .bytes(let e)? = cbor[intKey: Self.labelExponent], !e.isEmpty else {
                throw Self.malformed("e (-2) is missing, empty or not a byte string")
            }
            components = .rsa(modulus: n, exponent: e)
        }
        self.keyType = keyType
        self.algorithm = algorithm
        self.encoded = encoded
    }

    /// Decodes a COSE_Key from its CBOR bytes (exactly one item).
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let value = try CBORDecoder().decode(bytes)
        try self.init(cbor: value, encoded: bytes)
    }

    /// Builds the canonical COSE_Key for a public key (the software authenticator needs it).
    public init(publicKey: PublicKey, algorithm: COSEAlgorithm) throws(WebAuthnError) {
        let components = publicKey.components
        let keyType: KeyType
        switch components {
        case .ec: keyType = .ec2
        case .ed25519: keyType = .okp
        case .rsa: keyType = .rsa
        }
        var entries: [CBORMapEntry] = [
            CBORMapEntry(key: CBORValue(Self.labelKeyType), value: CBORValue(keyType.rawValue)),
            CBORMapEntry(key: CBORValue(Self.labelAlgorithm), value: CBORValue(algorithm.rawValue)),
        ]
        switch components {
        case .ec(let curve, let x, let y):
            let crv: Int
            switch curve {
            case .p256: crv = 1
            case .p384: crv = 2
            case .p521: crv = 3
            }
            entries.append(CBORMapEntry(key: CBORValue(Self.labelCurve), value: CBORValue(crv)))
            entries.append(CBORMapEntry(key: CBORValue(Self.labelX), value: .bytes(x)))
            entries.append(CBORMapEntry(key: CBORValue(Self.labelY), value: .bytes(y)))
        case .ed25519(let x):
            entries.append(CBORMapEntry(key: CBORValue(Self.labelCurve), value: CBORValue(6)))
            entries.append(CBORMapEntry(key: CBORValue(Self.labelX), value: .bytes(x)))
        case .rsa(let modulus, let exponent):
            entries.append(CBORMapEntry(key: CBORValue(Self.labelModulus), value: .bytes(modulus)))
            entries.append(CBORMapEntry(key: CBORValue(Self.labelExponent), value: .bytes(exponent)))
        }
        let map = CBORValue.map(entries)
        // Re-validating catches a key that does not fit the algorithm (e.g. P-384 with ES256).
        try self.init(cbor: map, encoded: CBOREncoder.encode(map))
    }

    /// Imports the key into libcrypto.
    public func publicKey() throws(WebAuthnError) -> PublicKey {
        do {
            return try PublicKey(components: components)
        } catch let error as CryptoError {
            if case .unsupportedAlgorithm = error {
                throw WebAuthnError(.algorithm, "COSE key: \(error)")
            }
            throw WebAuthnError(.malformed, "COSE key: \(error)")
        } catch {
            throw WebAuthnError(.malformed, "COSE key: \(error)")
        }
    }

    /// Curve name for EC2/OKP keys ("P-256", "Ed25519"), nil for RSA.
    public var curveName: String? {
        switch components {
        case .ec(let curve, _, _): return curve.rawValue
        case .ed25519: return "Ed25519"
        case .rsa: return nil
        }
    }

    private static func malformed(_ message: String) -> WebAuthnError {
        WebAuthnError(.malformed, "COSE key: \(message)")
    }

    private static func integer(_ map: CBORValue, _ label: Int, name: String) throws(WebAuthnError) -> Int64 {
        guard let value = map[intKey: label] else { throw malformed("\(name) is missing") }
        guard let integer = value.intValue else { throw malformed("\(name) is not an integer") }
        return integer
    }
}

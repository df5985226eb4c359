/// A JSON Web Key (RFC 7517/7518/8037). Private members are set only for private keys.
///
/// Supported: `kty` "EC" (P-256/384/521), "OKP" (Ed25519) and "RSA"; RSA private keys need all of
/// `d`, `p`, `q`, `dp`, `dq`, `qi` (multi-prime `oth` is not supported).
public struct JWK: Codable, Sendable, Hashable {
    /// Key type: "EC", "OKP" or "RSA".
    public var kty: String
    /// Curve name for EC ("P-256") and OKP ("Ed25519") keys.
    public var crv: String?
    /// EC x coordinate or the OKP public key, base64url.
    public var x: String?
    /// EC y coordinate, base64url.
    public var y: String?
    /// RSA modulus, base64url.
    public var n: String?
    /// RSA public exponent, base64url.
    public var e: String?
    /// Private scalar (EC), seed (OKP) or private exponent (RSA), base64url. Private keys only.
    public var d: String?
    /// Key id.
    public var kid: String?
    /// Intended algorithm ("ES256", "EdDSA", "RS256", …).
    public var alg: String?
    /// Intended use ("sig").
    public var use: String?
    /// RSA first prime factor (private keys only).
    public var p: String?
    /// RSA second prime factor (private keys only).
    public var q: String?
    /// RSA first CRT exponent (private keys only).
    public var dp: String?
    /// RSA second CRT exponent (private keys only).
    public var dq: String?
    /// RSA CRT coefficient (private keys only).
    public var qi: String?

    /// A JWK from its members; no validation happens until it is turned into a key.
    public init(
        kty: String, crv: String? = nil, x: String? = nil, y: String? = nil, n: String? = nil, e: String? = nil,
        d: String? = nil, kid: String? = nil, alg: String? = nil, use: String? = nil, p: String? = nil,
        q: String? = nil, dp: String? = nil, dq: String? = nil, qi: String? = nil
    ) {
        self.kty = kty
        self.crv = crv
        self.x = x
        self.y = y
        self.n = n
        self.e = e
        self.d = d
        self.kid = kid
        self.alg = alg
        self.use = use
        self.p = p
        self.q = q
        self.dp = dp
        self.dq = dq
        self.qi = qi
    }

    /// Whether any private member is present.
    public var hasPrivateMembers: Bool {
        d != nil || p != nil || q != nil || dp != nil || dq != nil || qi != nil
    }

    /// The public components this JWK describes (private members are not looked at).
    func publicComponents() throws -> PublicKeyComponents {
        switch kty {
        case "EC":
            guard let crv, let curve = Curve(rawValue: crv) else {
                throw CryptoError.invalidKey("JWK: unsupported or missing EC crv")
            }
            let x = try Self.member(x, "x", size: curve.coordinateSize)
            let y = try Self.member(y, "y", size: curve.coordinateSize)
            return .ec(curve: curve, x: x, y: y)
        case "OKP":
            guard crv == "Ed25519" else { throw CryptoError.invalidKey("JWK: unsupported or missing OKP crv") }
            return .ed25519(try Self.member(x, "x", size: 32))
        case "RSA":
            return .rsa(modulus: try Self.member(n, "n"), exponent: try Self.member(e, "e"))
        default:
            throw CryptoError.invalidKey("JWK: unsupported kty")
        }
    }

    /// Decodes a required base64url member, optionally of an exact length.
    static func member(_ value: String?, _ name: String, size: Int? = nil) throws -> [UInt8] {
        guard let value else { throw CryptoError.invalidKey("JWK: missing \(name)") }
        guard let bytes = try? Base64.decode(value, alphabet: .url), !bytes.isEmpty else {
            throw CryptoError.invalidKey("JWK: \(name) is not base64url")
        }
        if let size, bytes.count != size {
            throw CryptoError.invalidKey("JWK: \(name) must be \(size) bytes")
        }
        return bytes
    }

    /// The public JWK for `components` (no kid/alg/use).
    init(components: PublicKeyComponents) {
        switch components {
        case .ec(let curve, let x, let y):
            self.init(
                kty: "EC", crv: curve.rawValue, x: Base64.encode(x, alphabet: .url),
                y: Base64.encode(y, alphabet: .url))
        case .ed25519(let raw):
            self.init(kty: "OKP", crv: "Ed25519", x: Base64.encode(raw, alphabet: .url))
        case .rsa(let modulus, let exponent):
            self.init(kty: "RSA", n: Base64.encode(modulus, alphabet: .url), e: Base64.encode(exponent, alphabet: .url))
        }
    }
}

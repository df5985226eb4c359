import SesameCrypto
import WebAuthn

/// JWK thumbprints (RFC 7638): the SHA-256 of the key's required public members, serialised as
/// JSON with lexicographically ordered names and no whitespace. Sesame's `kid` is its base64url.
public enum JWKThumbprint {
    /// The canonical JSON of `components` that RFC 7638 §3.2 hashes.
    public static func canonicalJSON(_ components: PublicKeyComponents) -> String {
        // Every value is base64url or a fixed curve name, so nothing needs JSON escaping.
        let jwk = PublicKeyJWKMembers(components)
        switch components {
        case .ec:
            return #"{"crv":"\#(jwk.crv)","kty":"EC","x":"\#(jwk.x)","y":"\#(jwk.y)"}"#
        case .ed25519:
            return #"{"crv":"Ed25519","kty":"OKP","x":"\#(jwk.x)"}"#
        case .rsa:
            return #"{"e":"\#(jwk.e)","kty":"RSA","n":"\#(jwk.n)"}"#
        }
    }

    /// SHA-256 thumbprint bytes of `components`.
    public static func sha256(_ components: PublicKeyComponents) -> [UInt8] {
        Digest.sha256(Array(canonicalJSON(components).utf8))
    }

    /// The `kid` Sesame gives a key: base64url (unpadded) of its SHA-256 thumbprint.
    public static func keyID(for publicKey: PublicKey) -> String {
        Base64URL.encode(sha256(publicKey.components))
    }
}

/// The base64url members of a public key, as a JWK carries them.
private struct PublicKeyJWKMembers {
    var crv = ""
    var x = ""
    var y = ""
    var n = ""
    var e = ""

    init(_ components: PublicKeyComponents) {
        switch components {
        case .ec(let curve, let x, let y):
            crv = curve.rawValue
            self.x = Base64URL.encode(x)
            self.y = Base64URL.encode(y)
        case .ed25519(let raw):
            x = Base64URL.encode(raw)
        case .rsa(let modulus, let exponent):
            // RFC 7518 §6.3.1: unsigned big-endian without leading zero octets.
            n = Base64URL.encode(Array(modulus.drop { $0 == 0 }))
            e = Base64URL.encode(Array(exponent.drop { $0 == 0 }))
        }
    }
}

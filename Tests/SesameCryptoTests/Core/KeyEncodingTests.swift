import Foundation
import Testing

@testable import SesameCrypto

/// Keys made with the openssl command line, to check interoperability.
enum OpenSSLFixtures {
    /// `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024`, public half.
    static let rsa1024PublicPEM = """
        -----BEGIN PUBLIC KEY-----
        MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQCyVa0+xp/XRXuN2sZ5W3qfaXo0
        Ar9VWlbamp2VIcNUWeaar9b2n7P4JbDiB/Rp+3atXo01jdvJ0uzyQHhswTneXrej
        fSgnCJjp8JxstCR8F3hCKVWi8rsplDt278+tb9VkfUW6bL+KFVFI/QUdL+ZR4M0z
        rXcds5gOttoPF6NzPwIDAQAB
        -----END PUBLIC KEY-----
        """
    /// `openssl dgst -sha1 -sign` of "legacy" with that key (RSA PKCS#1 v1.5, SHA-1).
    static let rsa1024SHA1Signature = TestHex.bytes(
        "1b2ddfa3654be95b98a4859b5180610be659e4940234fc7e84abde7ec63605ceb78c986a398cd7befcfcd59aaeed465e"
            + "7658c055270340adb1a48a4439317fc4461cbbfe1814f2d74255918d1629f39ed80175cfae4fafc35349c5cbe638a1"
            + "138a05a414f3a1b42ba07550d42a8a13c11982743869780291c4566b996d03ba70")
    /// A secp256k1 public key (a curve we do not support).
    static let secp256k1PublicPEM = """
        -----BEGIN PUBLIC KEY-----
        MFYwEAYHKoZIzj0CAQYFK4EEAAoDQgAEezGhdLdsN7jqSEu9GZPMVS7N5hXdebFX
        WkDpNlvae6dF6HPKkb1Ko1K80tMWF+4UbP6qkz+PmUPiosNR7r7DpA==
        -----END PUBLIC KEY-----
        """
    /// `openssl ecparam -name prime256v1 -genkey -noout` (SEC1) …
    static let ecSEC1PEM = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEILY8h39IrJsLDydcCZRyY9tIXx/yuqA5VtElyp138l+ZoAoGCCqGSM49
        AwEHoUQDQgAEowVklxnxIqguQ6ih1cZb+Jk/GyqlTKWOhFCo/4txlfD7vuAX9jUn
        kGxqsgKdO7keOku8+W+3BOQKAyS0B87a9A==
        -----END EC PRIVATE KEY-----
        """
    /// … and the same key as PKCS#8 (`openssl pkey`).
    static let ecPKCS8PEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgtjyHf0ismwsPJ1wJ
        lHJj20hfH/K6oDlW0SXKnXfyX5mhRANCAASjBWSXGfEiqC5DqKHVxlv4mT8bKqVM
        pY6EUKj/i3GV8Pu+4Bf2NSeQbGqyAp07uR46S7z5b7cE5AoDJLQHztr0
        -----END PRIVATE KEY-----

        """
    /// The SEC1 key encrypted with `openssl ec -aes128`.
    static let ecEncryptedPEM = """
        -----BEGIN EC PRIVATE KEY-----
        Proc-Type: 4,ENCRYPTED
        DEK-Info: AES-128-CBC,7D0397FC3F75D918609DF5D868652B47

        iOIi3KjvAwuHIDiIzo3ntDZ1LYAKm9YsPPhf/e2bqB75gBmNl6FqjbGR7Ob1ddlX
        ppWvobZHwGbs8x2Saq0Hjt2lo0K0CBHAbQXF6yeTAkzXMK1e9gmQ9nFdb66BTh7s
        HCdG5NvuGCLxAPRXnc3asZuoAhM29iyphXBRWoNy0xg=
        -----END EC PRIVATE KEY-----
        """
}

@Suite("Key encodings: SPKI, PEM, PKCS#8, JWK")
struct KeyEncodingTests {
    static func keys() throws -> [PrivateKey] {
        var keys = [
            try PrivateKey(curve: .p256, scalar: P256Fixture.scalar),
            try PrivateKey.generate(.ec(.p384)),
            try PrivateKey.generate(.ec(.p521)),
            try PrivateKey(ed25519Seed: Ed25519Fixture.seed),
        ]
        if let rsa = RSAFixture.key { keys.append(rsa) }
        return keys
    }

    @Test("public SPKI, PEM and JWK round trips for every key type")
    func publicRoundTrips() throws {
        let keys = try Self.keys()
        #expect(keys.count == 5)
        for key in keys {
            let original = key.publicKey
            let fromSPKI = try PublicKey(spkiDER: original.spkiDER)
            #expect(fromSPKI.components == original.components)
            #expect(fromSPKI.type == original.type)
            #expect(original.pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
            #expect(try PublicKey(pem: original.pem).spkiDER == original.spkiDER)
            let jwkData = try JSONEncoder().encode(original.jwk)
            let decoded = try JSONDecoder().decode(JWK.self, from: jwkData)
            #expect(try PublicKey(jwk: decoded).components == original.components)
            #expect(!decoded.hasPrivateMembers)
        }
    }

    @Test("private PKCS#8, PEM and JWK round trips for every key type; signatures still verify")
    func privateRoundTrips() throws {
        for key in try Self.keys() {
            let fromPKCS8 = try PrivateKey(pkcs8DER: key.pkcs8DER)
            #expect(fromPKCS8.pkcs8DER == key.pkcs8DER)
            #expect(try PrivateKey(pem: key.pem).pkcs8DER == key.pkcs8DER)
            let jwk = try key.privateJWK()
            #expect(jwk.d != nil)
            #expect(jwk == key.jwk)
            let fromJWK = try PrivateKey(jwk: jwk)
            #expect(fromJWK.publicKey.components == key.publicKey.components)
            let algorithm: SignatureAlgorithm
            switch key.type {
            case .ec: algorithm = .ecdsa(.sha256)
            case .ed25519: algorithm = .ed25519
            case .rsa: algorithm = .rsaPKCS1v15(.sha256)
            }
            let signature = try fromJWK.signature(for: [7], algorithm: algorithm)
            #expect(try key.publicKey.isValidSignature(signature, for: [7], algorithm: algorithm))
        }
    }

    @Test("known JWK members: RFC 7518-style EC JWK and RFC 8037 Ed25519 JWK")
    func knownJWK() throws {
        let ec = try PrivateKey(curve: .p256, scalar: P256Fixture.scalar).jwk
        #expect(ec.kty == "EC")
        #expect(ec.crv == "P-256")
        #expect(ec.x == Base64.encode(P256Fixture.x, alphabet: .url))
        #expect(ec.d == Base64.encode(P256Fixture.scalar, alphabet: .url))
        // RFC 8037 appendix A.1/A.2.
        let okp = try PrivateKey(ed25519Seed: Ed25519Fixture.seed).jwk
        #expect(
            okp
                == JWK(
                    kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
                    d: "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"))
    }

    @Test("openssl-made keys: RSA-1024 SPKI verifies a legacy SHA-1 signature; SEC1 equals PKCS#8")
    func openSSLInterop() throws {
        let legacy = try PublicKey(pem: OpenSSLFixtures.rsa1024PublicPEM)
        #expect(legacy.type == .rsa(bits: 1024))
        #expect(
            try legacy.isValidSignature(
                OpenSSLFixtures.rsa1024SHA1Signature, for: Array("legacy".utf8),
                algorithm: .rsaPKCS1v15(.legacySHA1)))
        // Components and JWK are for credential keys, which must be 2048 bits or more.
        #expect(throws: CryptoError.invalidKey("RSA modulus of 1024 bits is outside 2048...8192")) {
            try PublicKey(jwk: legacy.jwk)
        }
        let sec1 = try PrivateKey(pem: OpenSSLFixtures.ecSEC1PEM)
        let pkcs8 = try PrivateKey(pem: OpenSSLFixtures.ecPKCS8PEM)
        #expect(sec1.pkcs8DER == pkcs8.pkcs8DER)
        #expect(pkcs8.pem == OpenSSLFixtures.ecPKCS8PEM)
    }

    @Test("unsupported curves, encrypted PEM, wrong labels and trailing bytes are rejected")
    func rejections() throws {
        #expect(throws: CryptoError.invalidKey("unsupported elliptic curve")) {
            try PublicKey(pem: OpenSSLFixtures.secp256k1PublicPEM)
        }
        #expect(throws: CryptoError.invalidKey("encrypted or annotated PEM blocks are not supported")) {
            try PrivateKey(pem: OpenSSLFixtures.ecEncryptedPEM)
        }
        #expect(throws: CryptoError.invalidKey("expected a PUBLIC KEY PEM block, found PRIVATE KEY")) {
            try PublicKey(pem: OpenSSLFixtures.ecPKCS8PEM)
        }
        #expect(throws: CryptoError.invalidKey("expected a PRIVATE KEY PEM block, found PUBLIC KEY")) {
            try PrivateKey(pem: OpenSSLFixtures.rsa1024PublicPEM)
        }
        let spki = try PrivateKey(curve: .p256, scalar: P256Fixture.scalar).publicKey.spkiDER
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: spki + [0]) }
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: Array(spki.dropLast())) }
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: []) }
        let pkcs8 = try PrivateKey(curve: .p256, scalar: P256Fixture.scalar).pkcs8DER
        #expect(throws: CryptoError.self) { try PrivateKey(pkcs8DER: pkcs8 + [0]) }
        #expect(throws: CryptoError.self) { try PrivateKey(pkcs8DER: spki) }
    }

    @Test("malformed JWKs: bad kty, bad crv, wrong length, non-canonical base64url, mismatched d")
    func badJWK() throws {
        let good = try PrivateKey(curve: .p256, scalar: P256Fixture.scalar).jwk
        var jwk = good
        jwk.kty = "oct"
        #expect(throws: CryptoError.invalidKey("JWK: unsupported kty")) { try PublicKey(jwk: jwk) }
        jwk = good
        jwk.crv = "P-192"
        #expect(throws: CryptoError.invalidKey("JWK: unsupported or missing EC crv")) { try PublicKey(jwk: jwk) }
        jwk = good
        jwk.x = Base64.encode(Array(P256Fixture.x.dropFirst()), alphabet: .url)
        #expect(throws: CryptoError.invalidKey("JWK: x must be 32 bytes")) { try PublicKey(jwk: jwk) }
        jwk = good
        jwk.y = (good.y ?? "") + "="
        #expect(throws: CryptoError.invalidKey("JWK: y is not base64url")) { try PublicKey(jwk: jwk) }
        jwk = good
        jwk.y = nil
        #expect(throws: CryptoError.invalidKey("JWK: missing y")) { try PublicKey(jwk: jwk) }
        jwk = good
        jwk.d = Base64.encode(Array(repeating: 7, count: 32), alphabet: .url)
        #expect(throws: CryptoError.invalidKey("JWK public members do not match the private key")) {
            try PrivateKey(jwk: jwk)
        }
        jwk = good
        jwk.d = nil
        #expect(throws: CryptoError.invalidKey("JWK: missing d")) { try PrivateKey(jwk: jwk) }
    }
}

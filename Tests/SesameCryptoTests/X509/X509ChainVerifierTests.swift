import Foundation
import Testing

@testable import SesameCrypto

@Suite("X509ChainVerifier")
struct X509ChainVerifierTests {
    /// spec-packed-es256-with-mds: x5c_validity 2024-01-01 .. 3024-01-01.
    @Test("W3C packed sample verifies to its configured root inside the validity window")
    func specPackedVerifies() throws {
        let leaf = try X509Fixtures.certificate("spec-packed-es256-leaf.der")
        let root = try X509Fixtures.certificate("spec-packed-root.pem")
        let path = try X509ChainVerifier.verify(
            chain: [leaf], roots: [root], at: X509Fixtures.date("2024-06-01T00:00:00Z"))
        #expect(path.count == 2)
        #expect(path.first === leaf)
        #expect(path.last === root)
    }

    @Test("the same chain before notBefore fails")
    func specPackedTooEarly() throws {
        let leaf = try X509Fixtures.certificate("spec-packed-es256-leaf.der")
        let root = try X509Fixtures.certificate("spec-packed-root.pem")
        #expect(throws: CryptoError.chainVerification("certificate is not yet valid")) {
            try X509ChainVerifier.verify(chain: [leaf], roots: [root], at: X509Fixtures.date("2023-12-31T23:59:59Z"))
        }
    }

    @Test("the same chain with the leaf's signature altered fails")
    func specPackedBadSignature() throws {
        var der = try X509Fixtures.bytes("spec-packed-es256-leaf.der")
        let last = try #require(der.indices.last)
        der[last] ^= 0x01
        let leaf = try X509Certificate(der: der)
        let root = try X509Fixtures.certificate("spec-packed-root.pem")
        #expect(throws: CryptoError.chainVerification("certificate signature failure")) {
            try X509ChainVerifier.verify(chain: [leaf], roots: [root], at: X509Fixtures.date("2024-06-01T00:00:00Z"))
        }
    }

    @Test("bad-packed-x5c-wrong-trust-anchor: the YubiKey chain does not lead to GlobalSign R2")
    func wrongTrustAnchor() throws {
        let leaf = try X509Fixtures.certificate("yubikey-u2f-leaf.der")
        let root = try X509Fixtures.certificate("globalsign-r2-root.pem")
        #expect(throws: CryptoError.chainVerification("unable to get local issuer certificate")) {
            try X509ChainVerifier.verify(chain: [leaf], roots: [root], at: X509Fixtures.date("2020-01-01T00:00:00Z"))
        }
    }

    @Test("Apple: a configured intermediate is accepted as the anchor (partial chain)")
    func applePartialChain() throws {
        let leaf = try X509Fixtures.certificate("apple-passkey-leaf.der")
        let ca = try X509Fixtures.certificate("apple-webauthn-ca1.der")
        let path = try X509ChainVerifier.verify(
            chain: [leaf], roots: [ca], at: X509Fixtures.date("2021-09-01T00:00:00Z"))
        #expect(path.map(\.der) == [leaf.der, ca.der])
    }

    @Test("Apple: after the leaf's notAfter the chain fails")
    func appleExpired() throws {
        let leaf = try X509Fixtures.certificate("apple-passkey-leaf.der")
        let ca = try X509Fixtures.certificate("apple-webauthn-ca1.der")
        #expect(throws: CryptoError.chainVerification("certificate has expired")) {
            try X509ChainVerifier.verify(chain: [leaf], roots: [ca], at: X509Fixtures.date("2021-09-04T00:00:00Z"))
        }
    }

    @Test("Android (Pixel 8a): five certificates, intermediates untrusted, self-signed root")
    func androidChain() throws {
        let chain = try (0..<4).map { try X509Fixtures.certificate("android-pixel-8a-\($0).der") }
        let root = try X509Fixtures.certificate("android-pixel-8a-4.der")
        let path = try X509ChainVerifier.verify(
            chain: chain, roots: [root], at: X509Fixtures.date("2025-01-08T00:00:00Z"))
        #expect(path.count == 5)
        #expect(zip(path, chain + [root]).allSatisfy { $0 === $1 })
    }

    @Test("Android: without the intermediate Droid CA2 the chain fails")
    func androidMissingIntermediate() throws {
        let chain = try [0, 1, 2].map { try X509Fixtures.certificate("android-pixel-8a-\($0).der") }
        let root = try X509Fixtures.certificate("android-pixel-8a-4.der")
        #expect(throws: CryptoError.chainVerification("unable to get local issuer certificate")) {
            try X509ChainVerifier.verify(chain: chain, roots: [root], at: X509Fixtures.date("2025-01-08T00:00:00Z"))
        }
    }

    @Test("TPM AIK with its critical SAN verifies to the Microsoft intermediate")
    func tpmChain() throws {
        let aik = try X509Fixtures.certificate("tpm-surface-pro-4-aik.der")
        let ca = try X509Fixtures.certificate("tpm-surface-pro-4-ca.der")
        let path = try X509ChainVerifier.verify(
            chain: [aik], roots: [ca], at: X509Fixtures.date("2022-01-01T00:00:00Z"))
        #expect(path.count == 2)
    }

    @Test("a critical FIDO AAGUID extension is tolerated")
    func criticalAAGUIDTolerated() throws {
        let leaf = try X509Fixtures.certificate("synthetic-leaf-critical-aaguid.pem")
        let ca = try X509Fixtures.certificate("synthetic-ca.pem")
        let path = try X509ChainVerifier.verify(chain: [leaf], roots: [ca], at: leaf.notBefore.addingTimeInterval(3600))
        #expect(path.count == 2)
    }

    @Test("an unknown critical extension still fails")
    func criticalUnknownRejected() throws {
        let leaf = try X509Fixtures.certificate("synthetic-leaf-critical-unknown.pem")
        let ca = try X509Fixtures.certificate("synthetic-ca.pem")
        #expect(throws: CryptoError.chainVerification("unhandled critical extension")) {
            try X509ChainVerifier.verify(chain: [leaf], roots: [ca], at: leaf.notBefore.addingTimeInterval(3600))
        }
    }

    @Test("an empty chain throws")
    func emptyChain() throws {
        let root = try X509Fixtures.certificate("spec-packed-root.pem")
        #expect(throws: CryptoError.chainVerification("empty certificate chain")) {
            try X509ChainVerifier.verify(chain: [], roots: [root], at: X509Fixtures.date("2024-06-01T00:00:00Z"))
        }
    }
}

import Foundation
import SesameCrypto
import SesameService
import SesameStore
import Testing
import WebAuthn

@Suite("Signing-key ring")
struct SigningKeyRingTests {
    typealias F = TokenFixtures
    static let tenant = "ten_1"

    let store = InMemoryStore()
    let clock = ManualClock(TokenFixtures.start)
    let masterKey: MasterKey

    init() throws {
        masterKey = try MasterKey(bytes: (0..<32).map { UInt8($0) })
    }

    private func ring(masterKey: MasterKey? = nil) -> SigningKeyRing {
        SigningKeyRing(store: store, masterKey: masterKey ?? self.masterKey, clock: clock)
    }

    private func records() throws -> [SigningKeyRecord] {
        try store.read { try $0.signingKeys.list(tenantID: Self.tenant) }
    }

    @Test("ensureKeys creates one current key per algorithm, sealed, with the thumbprint as kid")
    func creation() throws {
        let ring = ring()
        try ring.ensureKeys(tenantID: Self.tenant)
        try ring.ensureKeys(tenantID: Self.tenant)  // idempotent
        let keys = try records()
        #expect(Set(keys.map(\.algorithm)) == [.rs256, .es256, .edDSA])
        #expect(keys.count == 3)
        for record in keys {
            #expect(record.state == .current)
            let publicKey = try PublicKey(spkiDER: record.publicKeySPKI)
            #expect(record.id == JWKThumbprint.keyID(for: publicKey))
            // The contract other implementations rely on: AAD = tenantID ‖ 0x00 ‖ kid.
            let pkcs8 = try masterKey.open(
                record.sealedPrivateKey, associatedData: Array(Self.tenant.utf8) + [0] + Array(record.id.utf8))
            #expect(try PrivateKey(pkcs8DER: pkcs8).publicKey.spkiDER == record.publicKeySPKI)
            #expect(!record.sealedPrivateKey.contains(subsequence: pkcs8))
        }
    }

    @Test("a sealed key opens only with the right master key and AAD")
    func sealing() throws {
        try ring().ensureKeys(tenantID: Self.tenant)
        let record = try #require(try records().first)
        #expect(throws: CryptoError.authenticationFailed) {
            try masterKey.open(record.sealedPrivateKey, associatedData: Array((Self.tenant + record.id).utf8))
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try masterKey.open(
                record.sealedPrivateKey, associatedData: Array("ten_2".utf8) + [0] + Array(record.id.utf8))
        }
        let otherMaster = try MasterKey(bytes: [UInt8](repeating: 7, count: 32))
        #expect(
            throws: SigningKeyError.cannotUnseal(
                keyID: try #require(try records().first { $0.algorithm == .es256 }).id)
        ) {
            try ring(masterKey: otherMaster).signer(tenantID: Self.tenant, algorithm: .es256)
        }
    }

    @Test(
        "a fresh ring unseals stored keys and signs tokens the tenant verifier accepts",
        arguments: JWTAlgorithm.allCases)
    func signAndVerify(algorithm: JWTAlgorithm) throws {
        try ring().ensureKeys(tenantID: Self.tenant)
        let ring = ring()  // empty cache: must unseal
        let signer = try ring.signer(tenantID: Self.tenant, algorithm: algorithm)
        #expect(signer.algorithm == algorithm)
        let token = try signer.sign(F.claims(), type: .accessToken)
        let verified = try ring.verify(token, tenantID: Self.tenant, expecting: F.expectations())
        #expect(verified.keyID == signer.keyID)
        #expect(try ring.signer(tenantID: Self.tenant, algorithm: algorithm) === signer)  // cached
    }

    @Test("a signer is created on demand for a tenant with no keys")
    func lazyCreation() throws {
        let signer = try ring().signer(tenantID: Self.tenant, algorithm: .edDSA)
        #expect(try records().count == 3)
        #expect(try records().contains { $0.id == signer.keyID && $0.state == .current })
    }

    @Test("createKeys works inside the caller's transaction")
    func createInTransaction() throws {
        let ring = ring()
        let inserted = try store.write(.durable) { try ring.createKeys(tenantID: Self.tenant, in: $0) }
        #expect(inserted.count == 3)
        #expect(Set(try records().map(\.id)) == Set(inserted.map(\.id)))
    }

    @Test("JWKS publishes current keys with kid, alg and use")
    func jwks() throws {
        let ring = ring()
        try ring.ensureKeys(tenantID: Self.tenant)
        let set = try ring.jwks(tenantID: Self.tenant)
        #expect(set.keys.map(\.alg) == ["RS256", "ES256", "EdDSA"])
        #expect(set.keys.map(\.kty) == ["RSA", "EC", "OKP"])
        #expect(set.keys.allSatisfy { $0.use == "sig" && !$0.hasPrivateMembers })
        #expect(Set(set.keys.compactMap(\.kid)) == Set(try records().map(\.id)))
        for jwk in set.keys {
            #expect(JWKThumbprint.keyID(for: try PublicKey(jwk: jwk)) == jwk.kid)
        }
        let json = String(decoding: try JSONEncoder().encode(set), as: UTF8.self)
        #expect(json.hasPrefix(#"{"keys":[{"#))
        #expect(!json.contains("null"))
    }

    @Test("rotation: previous stays published and verifiable; the one before is revoked and unpublished")
    func rotation() throws {
        let ring = ring()
        let first = try ring.signer(tenantID: Self.tenant, algorithm: .es256)
        let oldToken = try first.sign(F.claims(), type: .accessToken)

        let secondID = try ring.rotate(tenantID: Self.tenant, algorithm: .es256)
        #expect(secondID != first.keyID)
        #expect(try ring.signer(tenantID: Self.tenant, algorithm: .es256).keyID == secondID)
        #expect(try ring.verify(oldToken, tenantID: Self.tenant, expecting: F.expectations()).keyID == first.keyID)
        var published = try ring.jwks(tenantID: Self.tenant).keys.compactMap(\.kid)
        #expect(published.count == 4)
        #expect(published.contains(first.keyID) && published.contains(secondID))
        #expect(try records().first { $0.id == first.keyID }?.state == .previous)
        #expect(try records().first { $0.id == first.keyID }?.rotatedAt == F.start)

        let thirdID = try ring.rotate(tenantID: Self.tenant, algorithm: .es256)
        published = try ring.jwks(tenantID: Self.tenant).keys.compactMap(\.kid)
        #expect(published.count == 4)
        #expect(!published.contains(first.keyID))
        #expect(published.contains(secondID) && published.contains(thirdID))
        #expect(try records().first { $0.id == first.keyID }?.state == .revoked)
        #expect(throws: JWTError.unknownKey) {
            try ring.verify(oldToken, tenantID: Self.tenant, expecting: F.expectations())
        }
        // Other algorithms were not touched.
        #expect(try records().filter { $0.algorithm == .rs256 }.map(\.state) == [.current])
    }

    @Test("another process's rotation is seen after the refresh interval, or at once for an unknown kid")
    func crossProcess() throws {
        let here = ring()
        let there = ring()
        try here.ensureKeys(tenantID: Self.tenant)
        let before = try here.signer(tenantID: Self.tenant, algorithm: .es256).keyID
        _ = try there.jwks(tenantID: Self.tenant)  // `there` caches the key list now

        let rotated = try here.rotate(tenantID: Self.tenant, algorithm: .es256)
        let token = try here.signer(tenantID: Self.tenant, algorithm: .es256).sign(F.claims(), type: .accessToken)
        #expect(try there.signer(tenantID: Self.tenant, algorithm: .es256).keyID == before)  // still cached
        // Same instant as the cached load: no reload, so the new kid is unknown.
        #expect(throws: JWTError.unknownKey) {
            try there.verify(token, tenantID: Self.tenant, expecting: F.expectations())
        }
        clock.advance(by: 2)
        let later = F.expectations(now: F.start.addingTimeInterval(2))
        #expect(try there.verify(token, tenantID: Self.tenant, expecting: later).keyID == rotated)
        clock.advance(by: 60)
        #expect(try there.signer(tenantID: Self.tenant, algorithm: .es256).keyID == rotated)
    }

    @Test("tenants do not share keys")
    func tenantIsolation() throws {
        let ring = ring()
        let token = try ring.signer(tenantID: Self.tenant, algorithm: .rs256).sign(F.claims(), type: .accessToken)
        #expect(throws: JWTError.unknownKey) {
            try ring.verify(token, tenantID: "ten_2", expecting: F.expectations())
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether `subsequence` occurs contiguously in the array.
    fileprivate func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains {
            self[$0..<($0 + subsequence.count)].elementsEqual(subsequence)
        }
    }
}

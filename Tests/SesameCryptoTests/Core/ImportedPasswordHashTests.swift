import Foundation
import Testing

@testable import SesameCrypto

/// Imported hashes against vectors made by independent implementations (PyPI bcrypt,
/// argon2-cffi, passlib, hashlib; `scripts/password-hash-vectors.py`).
@Suite("Imported password hashes")
struct ImportedPasswordHashTests {
    struct Vector: Decodable, CustomTestStringConvertible {
        var scheme: String
        var password: String
        var hash: String
        var testDescription: String { "\(scheme) \(hash.prefix(24))…" }
    }

    static let vectors: [Vector] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Data/password-hashes/vectors.json")
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([Vector].self, from: data)) ?? []
    }()

    static func verify(_ scheme: String, _ password: [UInt8], _ hash: String) throws -> Bool {
        switch scheme {
        case "bcrypt": return try ImportedPasswordHash.verifyBcrypt(password: password, hash: hash)
        case "argon2": return try ImportedPasswordHash.verifyArgon2(password: password, phc: hash)
        case "pbkdf2": return try ImportedPasswordHash.PBKDF2(phc: hash).verify(password: password)
        case "sha256-salted": return try ImportedPasswordHash.SaltedSHA256(stored: hash).verify(password: password)
        default: throw CryptoError.invalidInput("unknown scheme \(scheme)")
        }
    }

    @Test func everySchemeHasVectors() {
        #expect(Set(Self.vectors.map(\.scheme)) == ["bcrypt", "argon2", "pbkdf2", "sha256-salted"])
        #expect(Self.vectors.count >= 30)
    }

    @Test(arguments: vectors)
    func theRightPasswordVerifiesAndAnotherDoesNot(_ vector: Vector) throws {
        let password = Array(vector.password.utf8)
        #expect(try Self.verify(vector.scheme, password, vector.hash))
        #expect(!(try Self.verify(vector.scheme, password + [0x21], vector.hash)))
        #expect(!(try Self.verify(vector.scheme, Array(password.dropLast()), vector.hash)))
        #expect(!(try Self.verify(vector.scheme, [], vector.hash)))
    }

    @Test func bcryptReadsSeventyTwoBytesAndNoNUL() throws {
        let vector = try #require(Self.vectors.first { $0.scheme == "bcrypt" && $0.password == "x" })
        #expect(!(try ImportedPasswordHash.verifyBcrypt(password: [0x78, 0], hash: vector.hash)))
    }

    @Test(arguments: [
        "$2b$04$short",
        "$2x$04$abcdefghijklmnopqrstuu5VeI2ANjQ3VmkyJ0xVL3pHIJ3OaTD5G",
        "$2b$31$abcdefghijklmnopqrstuu5VeI2ANjQ3VmkyJ0xVL3pHIJ3OaTD5G",
        "$2b$03$abcdefghijklmnopqrstuu5VeI2ANjQ3VmkyJ0xVL3pHIJ3OaTD5G",
        "$2b$04$abcdefghijklmnopqrstuu5VeI2ANjQ3VmkyJ0xVL3pHIJ3OaTD5!",
    ])
    func malformedBcryptIsRefusedBeforeCrypt(_ hash: String) {
        #expect(throws: CryptoError.self) { try ImportedPasswordHash.validateBcrypt(hash) }
        #expect(throws: CryptoError.self) { _ = try ImportedPasswordHash.verifyBcrypt(password: [1], hash: hash) }
    }

    @Test(arguments: [
        "$argon2id$v=19$m=4194304,t=1,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2x$v=19$m=1024,t=1,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2i$v=20$m=1024,t=1,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$argon2i$v=19$m=1024,t=1000,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$pbkdf2-md5$i=1000$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$pbkdf2-sha256$i=100000000$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$pbkdf2-sha256$i=1000,l=16$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$pbkdf2-sha256$i=1000$$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$sha256-salted$middle$c29tZQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
        "$sha256-salted$prefix$c29tZQ$CTFhFdXPJO1aFaMaO6Mm5c8y",
    ])
    func otherMalformedOrCostlyHashesAreRefused(_ hash: String) {
        let scheme =
            hash.hasPrefix("$argon2") ? "argon2" : hash.hasPrefix("$pbkdf2") ? "pbkdf2" : "sha256-salted"
        #expect(throws: CryptoError.self) { _ = try Self.verify(scheme, [1], hash) }
    }
}

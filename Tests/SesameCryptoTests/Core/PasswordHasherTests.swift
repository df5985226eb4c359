import Testing

@testable import SesameCrypto

@Suite("Argon2id password hashing")
struct PasswordHasherTests {
    // Small parameters keep the tests fast; production uses the defaults.
    let hasher = PasswordHasher(memoryKiB: 1024, iterations: 1, parallelism: 1)
    let password = Array("correct horse battery staple".utf8)

    @Test("hash produces an argon2id PHC string that verifies; a wrong password does not")
    func hashAndVerify() throws {
        let phc = try hasher.hash(password: password)
        #expect(phc.hasPrefix("$argon2id$v=19$m=1024,t=1,p=1$"))
        #expect(try hasher.verify(password: password, phc: phc))
        #expect(!(try hasher.verify(password: Array("correct horse battery stapler".utf8), phc: phc)))
        #expect(!(try hasher.verify(password: [], phc: phc)))
    }

    @Test("the salt comes from the injected random source")
    func seededSalt() throws {
        let first = try hasher.hash(password: password, random: DeterministicRandom(seed: 9))
        let second = try hasher.hash(password: password, random: DeterministicRandom(seed: 9))
        let other = try hasher.hash(password: password, random: DeterministicRandom(seed: 10))
        #expect(first == second)
        #expect(first != other)
    }

    @Test("RFC 9106-independent known answer: libargon2's reference vector for argon2id")
    func knownAnswer() throws {
        // From the phc-winner-argon2 test suite (test.c): argon2id v=19, t=2, m=65536, p=1,
        // password "password", salt "somesalt".
        let phc = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
        #expect(try hasher.verify(password: Array("password".utf8), phc: phc))
        #expect(!(try hasher.verify(password: Array("passwore".utf8), phc: phc)))
    }

    @Test("malformed or unacceptable PHC strings throw invalidInput")
    func malformed() throws {
        let phc = try hasher.hash(password: password, random: DeterministicRandom(seed: 1))
        let parts = phc.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        func with(_ index: Int, _ value: String) -> String {
            var copy = parts
            copy[index] = value
            return copy.joined(separator: "$")
        }
        let cases: [(String, String)] = [
            ("not a phc", "not a PHC string"),
            (with(1, "argon2i"), "only argon2id hashes are accepted"),
            (with(2, "v=16"), "only Argon2 version 19 is accepted"),
            (with(3, "m=1024,t=1"), "PHC parameters must be m=…,t=…,p=…"),
            (with(3, "m=01024,t=1,p=1"), "PHC parameters must be m=…,t=…,p=…"),
            (
                with(3, "m=4194304,t=1,p=1"),
                "Argon2 parameters m=4194304,t=1,p=1 are outside the accepted limits"
            ),
            (with(3, "m=1024,t=1000,p=1"), "Argon2 parameters m=1024,t=1000,p=1 are outside the accepted limits"),
            (with(4, parts[4] + "="), "PHC salt is malformed or of a bad length"),
            (with(4, "c2FsdA"), "PHC salt is malformed or of a bad length"),
            (with(5, String(parts[5].dropLast(2))), "PHC hash is malformed or of a bad length"),
        ]
        for (input, message) in cases {
            #expect(throws: CryptoError.invalidInput(message)) { try hasher.verify(password: password, phc: input) }
        }
    }

    @Test("a hasher configured outside the limits refuses to hash")
    func badConfiguration() {
        let huge = PasswordHasher(memoryKiB: 2_000_000, iterations: 1, parallelism: 1)
        #expect(throws: CryptoError.invalidInput("Argon2 parameters m=2000000,t=1,p=1 are outside the accepted limits"))
        {
            try huge.hash(password: [1])
        }
    }
}

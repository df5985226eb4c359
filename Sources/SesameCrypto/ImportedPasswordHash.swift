internal import CArgon2
internal import CCrypt
internal import COpenSSL

/// Password hashes made by another system and brought in with a user import (Auth0's
/// `custom_password_hash`). Each is checked once, at the user's next login, and then replaced by
/// Argon2id, so these verifiers only ever verify; they never make a hash.
///
/// Every form is parsed and its cost bounded before the library sees it: a stored string cannot
/// make one login allocate gigabytes or spin for minutes.
public enum ImportedPasswordHash {
    /// The most PBKDF2 iterations an imported hash may ask for.
    public static let maxPBKDF2Iterations = 10_000_000
    /// bcrypt cost: 4 … 16 (2^16 rounds is over a second already).
    public static let bcryptCosts = 4...16

    // MARK: bcrypt

    /// Checks a bcrypt string (`$2a$`, `$2b$` or `$2y$`, cost, 22 salt and 31 hash characters) with
    /// libxcrypt's `crypt_r`; the result is compared in constant time. Malformed strings throw.
    public static func verifyBcrypt(password: [UInt8], hash: String) throws -> Bool {
        try validateBcrypt(hash)
        // bcrypt reads the password as a C string: a NUL would end it early, so one cannot match.
        guard !password.contains(0) else { return false }
        var data = crypt_data()
        var key = password.map { CChar(bitPattern: $0) }
        key.append(0)
        let output: [UInt8]? = withUnsafeMutablePointer(to: &data) { pointer in
            guard let result = crypt_r(key, hash, pointer) else { return nil }
            return Array(String(cString: result).utf8)
        }
        // Clear the copy of the password.
        for index in key.indices { key[index] = 0 }
        guard let output, output.first == UInt8(ascii: "$") else {
            throw CryptoError.invalidInput("crypt_r refused the bcrypt hash")
        }
        return constantTimeEquals(output, Array(hash.utf8))
    }

    /// The shape of a bcrypt string: `$2[aby]$NN$` then 53 characters of bcrypt's base64.
    public static func validateBcrypt(_ hash: String) throws {
        let bytes = Array(hash.utf8)
        guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
            [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]), bytes[3] == UInt8(ascii: "$"),
            bytes[6] == UInt8(ascii: "$")
        else { throw CryptoError.invalidInput("not a bcrypt hash ($2a$, $2b$ or $2y$, 60 characters)") }
        guard let cost = Int(String(decoding: bytes[4..<6], as: UTF8.self)), bcryptCosts.contains(cost) else {
            throw CryptoError.invalidInput("bcrypt cost must be \(bcryptCosts.lowerBound) to \(bcryptCosts.upperBound)")
        }
        let alphabet = Set("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        guard bytes[7...].allSatisfy(alphabet.contains) else {
            throw CryptoError.invalidInput("bcrypt salt and hash hold a character outside bcrypt's alphabet")
        }
    }

    // MARK: Argon2 (i, d, id)

    /// The kind of an Argon2 PHC string.
    public enum Argon2Kind: String, Sendable {
        case argon2i, argon2d, argon2id
    }

    /// Checks an Argon2 PHC string of any kind, version 16 or 19, with its own parameters (within
    /// `PasswordHasher.Limits`).
    public static func verifyArgon2(password: [UInt8], phc: String) throws -> Bool {
        let kind = try validateArgon2(phc)
        guard let length = UInt32(exactly: password.count) else { throw CryptoError.invalidInput("password too long") }
        let type: argon2_type
        switch kind {
        case .argon2i: type = Argon2_i
        case .argon2d: type = Argon2_d
        case .argon2id: type = Argon2_id
        }
        let result = withNonNullBytes(password) { bytes, _ in argon2_verify(phc, bytes, Int(length), type) }
        if result == ARGON2_OK.rawValue { return true }
        if result == ARGON2_VERIFY_MISMATCH.rawValue { return false }
        throw CryptoError.invalidInput("argon2: " + String(cString: argon2_error_message(result)))
    }

    /// The kind of a well-formed Argon2 PHC string; throws for anything else.
    @discardableResult public static func validateArgon2(_ phc: String) throws -> Argon2Kind {
        var fields = phc.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        // Version 16 strings may leave the version out.
        if fields.count == 5 { fields.insert("v=16", at: 2) }
        guard fields.count == 6, fields[0].isEmpty, let kind = Argon2Kind(rawValue: fields[1]) else {
            throw CryptoError.invalidInput("not an Argon2 PHC string ($argon2i$, $argon2d$ or $argon2id$)")
        }
        guard fields[2] == "v=19" || fields[2] == "v=16" else {
            throw CryptoError.invalidInput("Argon2 version must be 16 or 19")
        }
        // The same shape and bounds as Sesame's own hashes, whatever the kind.
        try PasswordHasher.validate(
            phc: ["", "argon2id", "v=19", fields[3], fields[4], fields[5]].joined(separator: "$"))
        return kind
    }

    // MARK: PBKDF2

    /// A parsed PBKDF2 PHC string: `$pbkdf2-sha256$i=N[,l=L]$salt$hash` (base64, unpadded; `.`
    /// is read as `+`, the form passlib writes).
    public struct PBKDF2: Sendable, Hashable {
        public var digest: HashAlgorithm
        public var iterations: Int
        public var salt: [UInt8]
        public var hash: [UInt8]

        public init(phc: String) throws {
            let fields = phc.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, fields[0].isEmpty, fields[1].hasPrefix("pbkdf2-") else {
                throw CryptoError.invalidInput("not a PBKDF2 PHC string ($pbkdf2-<digest>$i=…$salt$hash)")
            }
            switch fields[1].dropFirst("pbkdf2-".count) {
            case "sha1": digest = .legacySHA1
            case "sha256": digest = .sha256
            case "sha384": digest = .sha384
            case "sha512": digest = .sha512
            default: throw CryptoError.invalidInput("PBKDF2 digest must be sha1, sha256, sha384 or sha512")
            }
            var iterations: Int?
            var length: Int?
            for parameter in fields[2].split(separator: ",", omittingEmptySubsequences: false) {
                let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2, pair[1].count <= 9, pair[1].allSatisfy(\.isASCII), let value = Int(pair[1]),
                    value > 0
                else { throw CryptoError.invalidInput("PBKDF2 parameters must be i=…[,l=…]") }
                switch pair[0] {
                case "i" where iterations == nil: iterations = value
                case "l" where length == nil: length = value
                default: throw CryptoError.invalidInput("PBKDF2 parameters must be i=…[,l=…]")
                }
            }
            guard let iterations, iterations <= ImportedPasswordHash.maxPBKDF2Iterations else {
                throw CryptoError.invalidInput(
                    "PBKDF2 iterations must be 1 to \(ImportedPasswordHash.maxPBKDF2Iterations)")
            }
            self.iterations = iterations
            func decode(_ text: String) -> [UInt8]? {
                try? Base64.decode(text.replacingOccurrences(of: ".", with: "+"), alphabet: .standard)
            }
            guard let salt = decode(fields[3]), (1...1_024).contains(salt.count) else {
                throw CryptoError.invalidInput("PBKDF2 salt is not 1 to 1024 bytes of base64")
            }
            guard let hash = decode(fields[4]), (16...512).contains(hash.count), length == nil || length == hash.count
            else { throw CryptoError.invalidInput("PBKDF2 hash is not 16 to 512 bytes of base64 (of length l)") }
            self.salt = salt
            self.hash = hash
        }

        /// Whether `password` derives to the hash (compared in constant time).
        public func verify(password: [UInt8]) throws -> Bool {
            guard let md = digest.messageDigest, let rounds = Int32(exactly: iterations),
                let passwordLength = Int32(exactly: password.count), let saltLength = Int32(exactly: salt.count),
                let outputLength = Int32(exactly: hash.count)
            else { throw CryptoError.invalidInput("PBKDF2 input out of range") }
            var derived = [UInt8](repeating: 0, count: hash.count)
            let ok = derived.withUnsafeMutableBufferPointer { output in
                withNonNullBytes(password) { passwordBytes, _ in
                    withNonNullBytes(salt) { saltBytes, _ in
                        passwordBytes.withMemoryRebound(to: CChar.self, capacity: max(1, password.count)) { text in
                            PKCS5_PBKDF2_HMAC(
                                text, passwordLength, saltBytes, saltLength, rounds, md, outputLength,
                                output.baseAddress)
                        }
                    }
                }
            }
            guard ok == 1 else {
                OpenSSLError.clear()
                throw CryptoError.library("PKCS5_PBKDF2_HMAC")
            }
            return constantTimeEquals(derived, hash)
        }
    }

    // MARK: Salted SHA-256

    /// Where the salt goes in a salted SHA-256.
    public enum SaltPosition: String, Sendable {
        case prefix, suffix
    }

    /// A salted SHA-256 as Sesame keeps it: `$sha256-salted$prefix|suffix$<salt>$<hash>`, salt and
    /// hash in unpadded standard base64 (the salt may be empty).
    public struct SaltedSHA256: Sendable, Hashable {
        public var position: SaltPosition
        public var salt: [UInt8]
        public var hash: [UInt8]

        public init(position: SaltPosition, salt: [UInt8], hash: [UInt8]) throws {
            guard hash.count == 32 else { throw CryptoError.invalidInput("a SHA-256 hash is 32 bytes") }
            guard salt.count <= 1_024 else { throw CryptoError.invalidInput("the salt is over 1024 bytes") }
            self.position = position
            self.salt = salt
            self.hash = hash
        }

        public init(stored: String) throws {
            let fields = stored.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, fields[0].isEmpty, fields[1] == "sha256-salted",
                let position = SaltPosition(rawValue: fields[2]),
                let salt = fields[3].isEmpty ? [] : (try? Base64.decode(fields[3], alphabet: .standard)),
                let hash = try? Base64.decode(fields[4], alphabet: .standard)
            else { throw CryptoError.invalidInput("not a $sha256-salted$ string") }
            try self.init(position: position, salt: salt, hash: hash)
        }

        /// The stored form.
        public var stored: String {
            "$sha256-salted$\(position.rawValue)$\(Base64.encode(salt, alphabet: .standard))$"
                + Base64.encode(hash, alphabet: .standard)
        }

        /// Whether SHA-256 of the salted password is the hash (compared in constant time).
        public func verify(password: [UInt8]) -> Bool {
            let input = position == .prefix ? salt + password : password + salt
            return constantTimeEquals(Digest.sha256(input), hash)
        }
    }
}

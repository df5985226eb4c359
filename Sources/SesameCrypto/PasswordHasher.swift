internal import CArgon2

/// Argon2id password hashing in the PHC string format ($argon2id$v=19$m=…,t=…,p=…$salt$hash).
///
/// Hashes use a 16-byte salt and a 32-byte output. `verify` accepts only argon2id, version 19, and
/// parameters within `limits`, so a stored (or attacker-supplied) string cannot make the server
/// allocate gigabytes or spin for minutes.
public struct PasswordHasher: Sendable {
    /// Memory cost in KiB.
    public var memoryKiB: UInt32
    /// Time cost (passes over memory).
    public var iterations: UInt32
    /// Lanes.
    public var parallelism: UInt32

    /// Bounds on parameters, both for hashing and for PHC strings being verified.
    public enum Limits {
        /// Memory cost: 8 KiB … 1 GiB.
        public static let memoryKiB: ClosedRange<UInt32> = 8...1_048_576
        /// Iterations: 1 … 64.
        public static let iterations: ClosedRange<UInt32> = 1...64
        /// Lanes: 1 … 64.
        public static let parallelism: ClosedRange<UInt32> = 1...64
        /// Salt length in a PHC string: 8 … 64 bytes.
        public static let saltBytes: ClosedRange<Int> = 8...64
        /// Hash length in a PHC string: 16 … 64 bytes.
        public static let hashBytes: ClosedRange<Int> = 16...64
    }

    /// Salt length for new hashes.
    public static let saltSize = 16
    /// Output length for new hashes.
    public static let hashSize = 32

    /// OWASP's Argon2id recommendation: 19 MiB, 2 iterations, 1 lane.
    public init(memoryKiB: UInt32 = 19_456, iterations: UInt32 = 2, parallelism: UInt32 = 1) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }

    /// A PHC string for `password` with a fresh salt from `random`. Throws `invalidInput` when this
    /// hasher's parameters are outside `Limits`.
    public func hash(password: [UInt8], random: any RandomSource = SystemRandom()) throws -> String {
        try Self.checkParameters(memoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism)
        guard let passwordLength = UInt32(exactly: password.count) else {
            throw CryptoError.invalidInput("password too long")
        }
        let salt = try random.bytes(count: Self.saltSize)
        guard salt.count == Self.saltSize else { throw CryptoError.invalidInput("the random source gave a short salt") }
        let encodedLength = argon2_encodedlen(
            iterations, memoryKiB, parallelism, UInt32(Self.saltSize), UInt32(Self.hashSize), Argon2_id)
        guard encodedLength > 0, encodedLength < 1024 else { throw CryptoError.library("argon2_encodedlen") }
        var encoded = [CChar](repeating: 0, count: encodedLength)
        let result = encoded.withUnsafeMutableBufferPointer { output in
            withNonNullBytes(password) { passwordBytes, _ in
                salt.withUnsafeBufferPointer { saltBytes in
                    argon2id_hash_encoded(
                        iterations, memoryKiB, parallelism, passwordBytes, Int(passwordLength),
                        saltBytes.baseAddress, saltBytes.count, Self.hashSize, output.baseAddress, output.count)
                }
            }
        }
        guard result == ARGON2_OK.rawValue else {
            throw CryptoError.library("argon2: " + String(cString: argon2_error_message(result)))
        }
        let bytes = encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Constant-time verification against a PHC string; a malformed string throws `invalidInput`.
    /// Only argon2id v=19 within `Limits` is accepted; the string's own parameters are used.
    public func verify(password: [UInt8], phc: String) throws -> Bool {
        try Self.validate(phc: phc)
        guard let passwordLength = UInt32(exactly: password.count) else {
            throw CryptoError.invalidInput("password too long")
        }
        let result = withNonNullBytes(password) { passwordBytes, _ in
            argon2id_verify(phc, passwordBytes, Int(passwordLength))
        }
        if result == ARGON2_OK.rawValue { return true }
        if result == ARGON2_VERIFY_MISMATCH.rawValue { return false }
        throw CryptoError.invalidInput("argon2: " + String(cString: argon2_error_message(result)))
    }

    /// The parameters of a well-formed argon2id PHC string (nil for anything else), to tell whether
    /// a stored hash was made with the parameters in force.
    public static func parameters(phc: String) -> (memoryKiB: UInt32, iterations: UInt32, parallelism: UInt32)? {
        guard (try? validate(phc: phc)) != nil else { return nil }
        let parameters = phc.split(separator: "$", omittingEmptySubsequences: false)[3]
            .split(separator: ",", omittingEmptySubsequences: false)
        guard parameters.count == 3, let memory = number(parameters[0], prefix: "m="),
            let iterations = number(parameters[1], prefix: "t="), let lanes = number(parameters[2], prefix: "p=")
        else { return nil }
        return (memory, iterations, lanes)
    }

    /// Checks the shape and parameters of a PHC string before libargon2 sees it.
    static func validate(phc: String) throws {
        let fields = phc.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].isEmpty else {
            throw CryptoError.invalidInput("not a PHC string")
        }
        guard fields[1] == "argon2id" else { throw CryptoError.invalidInput("only argon2id hashes are accepted") }
        guard fields[2] == "v=19" else { throw CryptoError.invalidInput("only Argon2 version 19 is accepted") }
        let parameters = fields[3].split(separator: ",", omittingEmptySubsequences: false)
        guard parameters.count == 3,
            let memory = number(parameters[0], prefix: "m="),
            let iterations = number(parameters[1], prefix: "t="),
            let parallelism = number(parameters[2], prefix: "p=")
        else { throw CryptoError.invalidInput("PHC parameters must be m=…,t=…,p=…") }
        try checkParameters(memoryKiB: memory, iterations: iterations, parallelism: parallelism)
        guard let salt = try? Base64.decode(String(fields[4]), alphabet: .standard),
            Limits.saltBytes.contains(salt.count)
        else { throw CryptoError.invalidInput("PHC salt is malformed or of a bad length") }
        guard let hash = try? Base64.decode(String(fields[5]), alphabet: .standard),
            Limits.hashBytes.contains(hash.count)
        else { throw CryptoError.invalidInput("PHC hash is malformed or of a bad length") }
    }

    private static func checkParameters(memoryKiB: UInt32, iterations: UInt32, parallelism: UInt32) throws {
        guard Limits.memoryKiB.contains(memoryKiB), Limits.iterations.contains(iterations),
            Limits.parallelism.contains(parallelism), UInt64(memoryKiB) >= 8 * UInt64(parallelism)
        else {
            throw CryptoError.invalidInput(
                "Argon2 parameters m=\(memoryKiB),t=\(iterations),p=\(parallelism) are outside the accepted limits")
        }
    }

    /// A decimal without sign or leading zeros after `prefix`, at most 10 digits.
    private static func number(_ field: Substring, prefix: String) -> UInt32? {
        guard field.hasPrefix(prefix) else { return nil }
        let digits = field.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ ("0"..."9").contains($0) }),
            digits.first != "0" || digits.count == 1
        else { return nil }
        return UInt32(digits)
    }
}

import SesameService

/// Makes a random password that meets a password-rules string (Apple's syntax, read by
/// `PasswordRulesParser` as the server reads it), for `sesame upgrade strong-password`.
///
/// The password is at least `preferredLength` characters (longer when `minlength` says so, shorter
/// only when `maxlength` does), holds a character of each `required` class and, room allowing, a
/// lower-case letter, an upper-case letter, a digit and a symbol when the rules allow them. The
/// space and the characters a shell treats specially even in quotes (`' " \` \ $`) are left out
/// unless the rules leave nothing else, so the password can be pasted into a quoted argument. A
/// candidate that breaks a run limit (`max-consecutive` and the like) is drawn again.
enum PasswordGenerator {
    static let preferredLength = 24
    /// How many candidates are drawn before giving up (rules no password meets).
    static let attempts = 200

    /// A password for `rules`, nil when none was found; `random` is the source of every choice.
    static func generate(rules text: String, using random: inout some RandomNumberGenerator) -> String? {
        let rules = PasswordRulesParser.parse(text).rules
        var length = max(rules.minLength ?? 0, preferredLength)
        if let maxLength = rules.maxLength { length = min(length, maxLength) }
        length = max(length, rules.required.count, 1)
        let allowed = characters(rules.allowed)
        guard !allowed.isEmpty else { return nil }
        let required = rules.required.map(characters)
        guard required.allSatisfy({ !$0.isEmpty }) else { return nil }
        let mixed = [PasswordCharacterClass.lower, .upper, .digit, .special]
            .map { kind in allowed.filter { kind.contains($0) } }
            .filter { !$0.isEmpty }
        for _ in 0..<attempts {
            var picked = required.map { pick($0, &random) }
            for pool in mixed where picked.count < length {
                picked.append(pick(pool, &random))
            }
            while picked.count < length { picked.append(pick(allowed, &random)) }
            picked.shuffle(using: &random)
            var password = ""
            password.unicodeScalars.append(contentsOf: picked)
            if rules.allows(password) { return password }
        }
        return nil
    }

    /// One of `pool` (never empty here).
    private static func pick(_ pool: [Unicode.Scalar], _ random: inout some RandomNumberGenerator) -> Unicode.Scalar {
        pool[Int.random(in: 0..<pool.count, using: &random)]
    }

    /// Left out of passwords when the rules allow anything else.
    static let awkward: Set<Unicode.Scalar> = [" ", "'", "\"", "`", "\\", "$"]

    /// The printable ASCII characters in any of `classes`, without the `awkward` ones unless
    /// nothing else is.
    static func characters(_ classes: [PasswordCharacterClass]) -> [Unicode.Scalar] {
        let all = (UInt8(0x20)...UInt8(0x7E)).map { Unicode.Scalar($0) }.filter { scalar in
            classes.contains { $0.contains(scalar) }
        }
        let friendly = all.filter { !awkward.contains($0) }
        return friendly.isEmpty ? all : friendly
    }
}

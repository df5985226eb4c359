/// One rule's verdict on a password, in the shape of an entry of Auth0's `PasswordStrengthError`
/// (`description.rules[]`): a message with `%d` placeholders, their values in `format`, the
/// sub-conditions in `items`, and whether the password meets it.
public struct PasswordRuleVerdict: Sendable, Hashable {
    public var code: String
    public var message: String
    public var format: [Int]
    public var items: [PasswordRuleVerdict]
    public var verified: Bool

    public init(code: String, message: String, format: [Int] = [], items: [PasswordRuleVerdict] = [], verified: Bool) {
        self.code = code
        self.message = message
        self.format = format
        self.items = items
        self.verified = verified
    }
}

extension PasswordRuleVerdict {
    /// The rules as Auth0's `policy` text: `* ` and each message with its numbers filled in, items
    /// indented below their rule.
    public static func policy(_ verdicts: [PasswordRuleVerdict]) -> String {
        var lines: [String] = []
        for verdict in verdicts {
            lines.append("* " + verdict.filledMessage)
            for item in verdict.items { lines.append("  * " + item.filledMessage) }
        }
        return lines.joined(separator: "\n")
    }

    /// `message` with each `%d` replaced by the next number of `format`.
    public var filledMessage: String {
        var text = ""
        var numbers = format.makeIterator()
        var rest = Substring(message)
        while let range = rest.range(of: "%d") {
            text += rest[..<range.lowerBound]
            text += numbers.next().map(String.init) ?? "%d"
            rest = rest[range.upperBound...]
        }
        return text + rest
    }
}

/// One rule of a connection's password rules, as a person reads it (the hosted pages' checklist).
public enum PasswordRule: Sendable, Hashable {
    case minLength(Int)
    case maxLength(Int)
    /// At least one character of these classes.
    case required([PasswordCharacterClass])
    /// Only characters of these classes.
    case allowed([PasswordCharacterClass])
    /// At most this many identical characters in a row.
    case maxRepeating(Int)
    /// At most this many characters in an ascending or descending run (`abc`, `321`).
    case maxSequential(Int)
}

extension PasswordRules {
    /// The rules in `check`'s order: length, each `required`, `allowed`, then the run limits
    /// (`max-consecutive` counts as both).
    public var list: [PasswordRule] {
        var rules: [PasswordRule] = []
        if let minLength { rules.append(.minLength(minLength)) }
        if let maxLength { rules.append(.maxLength(maxLength)) }
        rules += required.map(PasswordRule.required)
        rules.append(.allowed(allowed))
        if let repeating = [maxConsecutive, maxRepeating].compactMap({ $0 }).min() {
            rules.append(.maxRepeating(repeating))
        }
        if let sequential = [maxConsecutive, maxSequential].compactMap({ $0 }).min() {
            rules.append(.maxSequential(sequential))
        }
        return rules
    }

    /// One verdict per rule of `list`, in its order. Length counts Unicode code points (NIST SP
    /// 800-63B); the password is taken as given (normalise it first; never trim it).
    public func check(_ password: String) -> [PasswordRuleVerdict] {
        let scalars = Array(password.unicodeScalars)
        return list.map { rule in
            switch rule {
            case .minLength(let minimum):
                return PasswordRuleVerdict(
                    code: "lengthAtLeast", message: "At least %d characters in length", format: [minimum],
                    verified: scalars.count >= minimum)
            case .maxLength(let maximum):
                return PasswordRuleVerdict(
                    code: "lengthAtMost", message: "At most %d characters in length", format: [maximum],
                    verified: scalars.count <= maximum)
            case .required(let classes):
                let items = classes.map { characterClass in
                    PasswordRuleVerdict(
                        code: characterClass.code, message: characterClass.message,
                        verified: scalars.contains { characterClass.contains($0) })
                }
                return PasswordRuleVerdict(
                    code: "containsAtLeast", message: "Contain at least %d of the following %d types of characters:",
                    format: [1, classes.count], items: items, verified: items.contains { $0.verified })
            case .allowed(let classes):
                return PasswordRuleVerdict(
                    code: "allowedCharacters", message: "Contain only the following types of characters:",
                    items: classes.map { PasswordRuleVerdict(code: $0.code, message: $0.message, verified: true) },
                    verified: scalars.allSatisfy { scalar in classes.contains { $0.contains(scalar) } })
            case .maxRepeating(let repeating):
                return PasswordRuleVerdict(
                    code: "identicalChars", message: "No more than %d identical characters in a row",
                    format: [repeating], verified: Self.longestRepeat(scalars) <= repeating)
            case .maxSequential(let sequential):
                return PasswordRuleVerdict(
                    code: "sequentialChars", message: "No more than %d sequential characters in a row (abc, 321)",
                    format: [sequential], verified: Self.longestSequence(scalars) <= sequential)
            }
        }
    }

    /// Whether `password` meets every rule.
    public func allows(_ password: String) -> Bool { check(password).allSatisfy(\.verified) }

    /// The longest run of one character repeated.
    static func longestRepeat(_ scalars: [Unicode.Scalar]) -> Int {
        var longest = 0
        var run = 0
        for (index, scalar) in scalars.enumerated() {
            run = index > 0 && scalars[index - 1] == scalar ? run + 1 : 1
            longest = max(longest, run)
        }
        return longest
    }

    /// The longest ascending or descending run by one within a–z, A–Z or 0–9 (`abc`, `CBA`, `321`).
    static func longestSequence(_ scalars: [Unicode.Scalar]) -> Int {
        func range(_ scalar: Unicode.Scalar) -> Int? {
            switch scalar.value {
            case 0x61...0x7A: return 0
            case 0x41...0x5A: return 1
            case 0x30...0x39: return 2
            default: return nil
            }
        }
        var longest = scalars.isEmpty ? 0 : 1
        var run = 1
        var step: Int64 = 0
        for index in scalars.indices.dropFirst() {
            let previous = scalars[index - 1]
            let current = scalars[index]
            let difference = Int64(current.value) - Int64(previous.value)
            if let kind = range(current), range(previous) == kind, difference == 1 || difference == -1 {
                run = difference == step ? run + 1 : 2
                step = difference
            } else {
                run = 1
                step = 0
            }
            longest = max(longest, run)
        }
        return longest
    }
}

extension PasswordCharacterClass {
    /// Whether `scalar` belongs to the class.
    public func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch self {
        case .upper: return (0x41...0x5A).contains(value)
        case .lower: return (0x61...0x7A).contains(value)
        case .digit: return (0x30...0x39).contains(value)
        case .special:
            return value <= 0x7E
                && PasswordRulesParser.specialRanges.contains { $0.contains(UInt8(truncatingIfNeeded: value)) }
        case .asciiPrintable: return (0x20...0x7E).contains(value)
        case .unicode: return true
        case .custom(let characters): return value <= 0x7E && characters.contains(UInt8(truncatingIfNeeded: value))
        }
    }

    /// Auth0's item code for the class (`custom` for a custom one).
    var code: String {
        switch self {
        case .upper: return "upperCase"
        case .lower: return "lowerCase"
        case .digit: return "numbers"
        case .special: return "specialCharacters"
        case .asciiPrintable: return "asciiPrintable"
        case .unicode: return "unicode"
        case .custom: return "custom"
        }
    }

    /// The class for people, in Auth0's words where it has them.
    var message: String {
        switch self {
        case .upper: return "upper case letters (A-Z)"
        case .lower: return "lower case letters (a-z)"
        case .digit: return "numbers (i.e. 0-9)"
        case .special: return "special characters (e.g. !@#$%^&*)"
        case .asciiPrintable: return "printable ASCII characters"
        case .unicode: return "any character"
        case .custom(let characters): return "one of " + String(decoding: characters, as: UTF8.self)
        }
    }
}

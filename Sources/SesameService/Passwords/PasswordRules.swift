/// Apple's password-rules syntax (`passwordrules` in HTML, `UITextInputPasswordRules`): the rules a
/// connection publishes, parsed the way Apple's reference parser (`PasswordRulesParser.js` in
/// apple/password-manager-resources) reads them, so the string the password manager generates for
/// is the string the server enforces.
///
/// The reference is lenient: it reports a problem and carries on, dropping what it could not read,
/// and sometimes everything. `PasswordRulesParser.parse` returns both what the reference would
/// enforce and every problem, with its position (in UTF-16 code units, as the reference counts).
/// The Management API refuses a rules string with any problem. The vectors in
/// `Tests/SesameServiceTests/Data/password-rules-vectors.json` were made by the reference itself
/// (`scripts/password-rules-vectors.sh`), and the parser agrees with every one.
public struct PasswordRules: Sendable, Hashable {
    /// Each `required` rule: at least one character from the union of its classes.
    public var required: [[PasswordCharacterClass]]
    /// The characters a password may contain: every `allowed` and `required` class (ASCII printable
    /// when the rules name none).
    public var allowed: [PasswordCharacterClass]
    /// `max-consecutive`: the smallest given. Enforced as both of the two below, as
    /// apple/password-manager-resources#1255 redefines it.
    public var maxConsecutive: Int?
    /// `max-repeating`: at most this many identical characters in a row (the smallest given).
    public var maxRepeating: Int?
    /// `max-sequential`: at most this many characters in an ascending or descending run within
    /// a–z, A–Z or 0–9 (the smallest given).
    public var maxSequential: Int?
    /// `minlength`: the largest given.
    public var minLength: Int?
    /// `maxlength`: the smallest given.
    public var maxLength: Int?

    /// The rules in canonical form, e.g. `required: lower; required: upper; allowed: digit, [-!];
    /// minlength: 12`. It parses back to the same rules.
    public var canonical: String {
        var parts = required.map { "required: " + Self.describe($0) }
        parts.append("allowed: " + Self.describe(allowed))
        if let maxConsecutive { parts.append("max-consecutive: \(maxConsecutive)") }
        if let maxRepeating { parts.append("max-repeating: \(maxRepeating)") }
        if let maxSequential { parts.append("max-sequential: \(maxSequential)") }
        if let minLength { parts.append("minlength: \(minLength)") }
        if let maxLength { parts.append("maxlength: \(maxLength)") }
        return parts.joined(separator: "; ") + ";"
    }

    private static func describe(_ classes: [PasswordCharacterClass]) -> String {
        classes.map(\.canonical).joined(separator: ", ")
    }
}

/// A character class of the password-rules syntax.
public enum PasswordCharacterClass: Sendable, Hashable {
    case upper
    case lower
    case digit
    /// U+0020–U+002F, U+003A–U+0040, U+005B–U+0060 and U+007B–U+007E: the space included.
    case special
    case asciiPrintable
    case unicode
    /// ASCII printable characters, in the reference's canonical order (ascending, by range).
    case custom([UInt8])

    /// The identifier, or the custom class written so that it reads back the same: `-` first and
    /// `]` last (written `]]`).
    public var canonical: String {
        switch self {
        case .upper: return "upper"
        case .lower: return "lower"
        case .digit: return "digit"
        case .special: return "special"
        case .asciiPrintable: return "ascii-printable"
        case .unicode: return "unicode"
        case .custom(let characters):
            var ordered = characters.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "]") }
            if characters.contains(UInt8(ascii: "-")) { ordered.insert(UInt8(ascii: "-"), at: 0) }
            if characters.contains(UInt8(ascii: "]")) { ordered.append(UInt8(ascii: "]")) }
            return "[" + String(decoding: ordered, as: UTF8.self) + "]"
        }
    }
}

/// A problem the parser found, at `position` (UTF-16 code units from the start).
public struct PasswordRulesDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public let position: Int
    public let message: String
    public init(position: Int, message: String) {
        self.position = position
        self.message = message
    }
    public var description: String { "at \(position): \(message)" }
}

/// Parses password-rules strings (`PasswordRules`).
public enum PasswordRulesParser {
    /// What the reference parser makes of `text`, and every problem it reports.
    public static func parse(_ text: String) -> (rules: PasswordRules, diagnostics: [PasswordRulesDiagnostic]) {
        var parser = Parser(Array(text.utf16))
        let parsed = parser.rules() ?? []
        return (merge(parsed), parser.diagnostics)
    }

    /// The longest `minlength` or `maxlength` a connection may set: a password over 1,024 bytes is
    /// refused before it is hashed, and an ASCII password has one byte per character.
    public static let maxLengthLimit = 1_024

    /// Every reason to refuse `text` as a connection's rules: the reference's problems, what it
    /// drops without a word (an empty or zero value, an empty class, a character a class cannot
    /// hold), and rules no password can meet. Empty when the string is clean.
    public static func problems(_ text: String) -> [PasswordRulesDiagnostic] {
        var parser = Parser(Array(text.utf16))
        let parsed = parser.rules()
        var problems = (parser.diagnostics + parser.dropped).sorted { $0.position < $1.position }
        guard problems.isEmpty, let parsed else { return problems }
        let rules = merge(parsed)
        let end = text.utf16.count
        if let minLength = rules.minLength, minLength > maxLengthLimit {
            problems.append(.init(position: end, message: "minlength is over \(maxLengthLimit)"))
        }
        if let maxLength = rules.maxLength, maxLength > maxLengthLimit {
            problems.append(.init(position: end, message: "maxlength is over \(maxLengthLimit)"))
        }
        if let minLength = rules.minLength, let maxLength = rules.maxLength, minLength > maxLength {
            problems.append(.init(position: end, message: "minlength \(minLength) is over maxlength \(maxLength)"))
        }
        if let maxLength = rules.maxLength, rules.required.count > maxLength {
            problems.append(
                .init(
                    position: end,
                    message: "\(rules.required.count) required rules cannot fit in \(maxLength) characters"))
        }
        return problems
    }

    /// The rules as the reference merges them: each `required` canonicalised on its own, `allowed`
    /// the union of everything, the strictest of each number.
    static func merge(_ parsed: [ParsedRule]) -> PasswordRules {
        var required: [[PasswordCharacterClass]] = []
        var allowed: [PasswordCharacterClass] = []
        var maxConsecutive: Int?
        var maxRepeating: Int?
        var maxSequential: Int?
        var minLength = 0
        var maxLength: Int?
        for rule in parsed {
            switch rule {
            case .required(let classes):
                let canonical = canonicalized(classes)
                required.append(canonical)
                allowed += canonical
            case .allowed(let classes): allowed += classes
            case .maxConsecutive(let value): maxConsecutive = min(value, maxConsecutive ?? value)
            case .maxRepeating(let value): maxRepeating = min(value, maxRepeating ?? value)
            case .maxSequential(let value): maxSequential = min(value, maxSequential ?? value)
            case .minLength(let value): minLength = max(value, minLength)
            case .maxLength(let value): maxLength = min(value, maxLength ?? value)
            }
        }
        allowed = canonicalized(allowed)
        if allowed.isEmpty { allowed = [.asciiPrintable] }
        return PasswordRules(
            required: required, allowed: allowed, maxConsecutive: maxConsecutive, maxRepeating: maxRepeating,
            maxSequential: maxSequential, minLength: minLength > 0 ? minLength : nil, maxLength: maxLength)
    }

    /// The reference's canonical form of a class list: `unicode` or `ascii-printable` swallow the
    /// list (the first one met wins); whole ranges become their names, the rest one custom class.
    static func canonicalized(_ classes: [PasswordCharacterClass]) -> [PasswordCharacterClass] {
        var present = [Bool](repeating: false, count: 0x7F)
        for characterClass in classes {
            switch characterClass {
            case .unicode: return [.unicode]
            case .asciiPrintable: return [.asciiPrintable]
            case .upper: for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { present[Int(byte)] = true }
            case .lower: for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { present[Int(byte)] = true }
            case .digit: for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { present[Int(byte)] = true }
            case .special: for range in specialRanges { for byte in range { present[Int(byte)] = true } }
            case .custom(let characters): for byte in characters { present[Int(byte)] = true }
            }
        }
        var seen: [UInt8] = []
        func whole(_ range: [ClosedRange<UInt8>]) -> Bool {
            let members = range.flatMap { $0.filter { present[Int($0)] } }
            let size = range.reduce(0) { $0 + $1.count }
            if members.count != size { seen += members }
            return members.count == size
        }
        let upper = whole([UInt8(ascii: "A")...UInt8(ascii: "Z")])
        let lower = whole([UInt8(ascii: "a")...UInt8(ascii: "z")])
        let digit = whole([UInt8(ascii: "0")...UInt8(ascii: "9")])
        let special = whole(specialRanges)
        if upper, lower, digit, special { return [.asciiPrintable] }
        var result: [PasswordCharacterClass] = []
        if upper { result.append(.upper) }
        if lower { result.append(.lower) }
        if digit { result.append(.digit) }
        if special { result.append(.special) }
        if !seen.isEmpty { result.append(.custom(seen)) }
        return result
    }

    static let specialRanges: [ClosedRange<UInt8>] = [
        UInt8(ascii: " ")...UInt8(ascii: "/"), UInt8(ascii: ":")...UInt8(ascii: "@"),
        UInt8(ascii: "[")...UInt8(ascii: "`"), UInt8(ascii: "{")...UInt8(ascii: "~"),
    ]

    /// A rule as read, before merging.
    enum ParsedRule: Hashable {
        case required([PasswordCharacterClass])
        case allowed([PasswordCharacterClass])
        case maxConsecutive(Int)
        case maxRepeating(Int)
        case maxSequential(Int)
        case minLength(Int)
        case maxLength(Int)
    }

    /// The reference's recursive-descent reader, step for step, over UTF-16 code units.
    struct Parser {
        let input: [UInt16]
        var diagnostics: [PasswordRulesDiagnostic] = []
        /// What the reference drops without reporting it (not counted in `diagnostics`, which
        /// match the reference's own count).
        var dropped: [PasswordRulesDiagnostic] = []

        init(_ input: [UInt16]) { self.input = input }

        private mutating func drop(_ position: Int, _ message: String) {
            dropped.append(PasswordRulesDiagnostic(position: position, message: message))
        }

        private var length: Int { input.count }

        private mutating func problem(_ position: Int, _ message: String) {
            diagnostics.append(PasswordRulesDiagnostic(position: position, message: message))
        }

        private static func isIdentifier(_ c: UInt16) -> Bool {
            (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x2D
        }
        private static func isDigit(_ c: UInt16) -> Bool { c >= 0x30 && c <= 0x39 }
        private static func isPrintable(_ c: UInt16) -> Bool { c >= 0x20 && c <= 0x7E }
        private static func isWhitespace(_ c: UInt16) -> Bool {
            c == 0x20 || c == 0x0C || c == 0x0A || c == 0x0D || c == 0x09
        }

        private func skipWhitespace(_ start: Int) -> Int {
            var position = start
            while position < length, Self.isWhitespace(input[position]) { position += 1 }
            return position
        }

        private func identifier(at start: Int) -> (String, Int) {
            var position = start
            while position < length, Self.isIdentifier(input[position]) { position += 1 }
            return (String(decoding: input[start..<position], as: UTF16.self), position)
        }

        /// Every rule (the reference's `_parsePasswordRulesInternal`); nil when the reference
        /// gives up on the whole string.
        mutating func rules() -> [ParsedRule]? {
            var rules: [ParsedRule] = []
            var position = skipWhitespace(0)
            while position < length {
                guard Self.isIdentifier(input[position]) else {
                    problem(position, "expected the name of a rule")
                    return rules
                }
                let (rule, next) = self.rule(at: position)
                if let rule { rules.append(rule) }
                position = skipWhitespace(next)
                if position >= length { break }
                if input[position] == 0x3B {  // ;
                    position = skipWhitespace(position + 1)
                    if position >= length { return rules }
                    continue
                }
                problem(position, "expected ';' before the next rule")
                return nil
            }
            return rules
        }

        /// One rule; nil when it is empty, zero or unreadable (the reference drops it).
        private mutating func rule(at start: Int) -> (ParsedRule?, Int) {
            let (name, afterName) = identifier(at: start)
            // The reference's names, and the two apple/password-manager-resources#1255 adds.
            let known = [
                "allowed", "max-consecutive", "required", "minlength", "maxlength", "max-repeating", "max-sequential",
            ]
            guard known.contains(name) else {
                problem(start, "unknown rule \"\(name.prefix(64))\"")
                return (nil, start)
            }
            guard afterName < length else {
                problem(afterName, "expected ':' after \(name)")
                return (nil, afterName)
            }
            guard input[afterName] == 0x3A else {  // :
                problem(afterName, "expected ':' after \(name)")
                return (nil, afterName)
            }
            let position = skipWhitespace(afterName + 1)
            if position >= length || input[position] == 0x3B {  // empty value
                drop(position, "\(name) has no value")
                return (nil, position)
            }
            switch name {
            case "allowed", "required":
                let (classes, next) = classList(at: position)
                guard let classes else { return (nil, next) }
                return (name == "allowed" ? .allowed(classes) : .required(classes), next)
            default:
                let (number, next) = integer(at: position)
                guard let number else { return (nil, next) }
                guard number != 0 else {
                    drop(position, "\(name) must not be 0")
                    return (nil, next)
                }
                switch name {
                case "max-consecutive": return (.maxConsecutive(number), next)
                case "max-repeating": return (.maxRepeating(number), next)
                case "max-sequential": return (.maxSequential(number), next)
                case "minlength": return (.minLength(number), next)
                default: return (.maxLength(number), next)
                }
            }
        }

        /// `class ("," class)*` (the reference's `_parsePasswordRequiredOrAllowedPropertyValue`).
        private mutating func classList(at start: Int) -> ([PasswordCharacterClass]?, Int) {
            var classes: [PasswordCharacterClass] = []
            var position = start
            while true {
                if Self.isIdentifier(input[position]) {
                    let (name, next) = identifier(at: position)
                    guard let named = Self.namedClass(name) else {
                        problem(position, "unknown character class \"\(name.prefix(64))\"")
                        return (nil, position)
                    }
                    classes.append(named)
                    position = next
                } else if input[position] == 0x5B {  // [
                    let (characters, next) = customClass(at: position)
                    if let characters {
                        if characters.isEmpty {
                            drop(position, "the class is empty")
                        } else {
                            classes.append(.custom(characters))
                        }
                    }
                    position = next
                } else {
                    problem(position, "expected a character class")
                    return (nil, position)
                }
                position = skipWhitespace(position)
                if position >= length || input[position] == 0x3B { break }
                if input[position] == 0x2C {  // ,
                    position = skipWhitespace(position + 1)
                    if position >= length {
                        problem(position, "expected a character class after ','")
                        return (nil, position)
                    }
                    continue
                }
                problem(position, "expected ',' or ';' after a character class")
                return (nil, position)
            }
            return (classes, position)
        }

        private static func namedClass(_ name: String) -> PasswordCharacterClass? {
            switch name.lowercased() {
            case "upper": return .upper
            case "lower": return .lower
            case "digit": return .digit
            case "special": return .special
            case "ascii-printable": return .asciiPrintable
            case "unicode": return .unicode
            default: return nil
            }
        }

        /// `[...]` (the reference's `_parseCustomCharacterClass`): characters outside ASCII printable
        /// are dropped, `-` counts only as the first character, `]` only last (written `]]`).
        private mutating func customClass(at start: Int) -> ([UInt8]?, Int) {
            var position = start + 1
            guard position < length else {
                problem(position, "expected the characters of a class after '['")
                return (nil, position)
            }
            let initial = position
            var characters: [UInt8] = []
            repeat {
                let c = input[position]
                if !Self.isPrintable(c) {
                    drop(position, "a class holds only ASCII printable characters")
                    position += 1
                    continue
                }
                if c == 0x2D, position - initial > 0 {  // -
                    problem(position, "'-' is ignored; it may only be the first character of a class")
                    position += 1
                    continue
                }
                characters.append(UInt8(c))
                position += 1
                if c == 0x5D { break }  // ]
            } while position < length
            if (position < length && input[position] != 0x5D) || (position == length && input[position - 1] == 0x5D) {
                // The last ']' read closed the class.
                characters.removeLast()
                if position < length {
                    let next = input[position]
                    if !Self.isWhitespace(next), next != 0x2C, next != 0x3B {
                        problem(
                            position,
                            "a ']' inside a class must be its last character (write ']]' for a literal one)")
                    }
                }
                return (characters, position)
            }
            if position < length, input[position] == 0x5D { return (characters, position + 1) }
            problem(position, "expected ']' to end the class")
            return (nil, position)
        }

        /// Digits up to ';' or the end (the reference's `_parseInteger`; nothing else may follow).
        private mutating func integer(at start: Int) -> (Int?, Int) {
            guard Self.isDigit(input[start]) else {
                problem(start, "expected a number")
                return (nil, start)
            }
            var position = start
            var value = 0
            repeat {
                let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(Int(input[position] - 0x30))
                value = overflow || overflow2 ? Int.max : sum
                position += 1
            } while position < length && input[position] != 0x3B && Self.isDigit(input[position])
            if position >= length || input[position] == 0x3B { return (value, position) }
            problem(position, "expected a number")
            return (nil, position)
        }
    }
}

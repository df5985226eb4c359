import Foundation
import SesameService
import Testing

/// Sesame's password-rules parser against Apple's reference parser: `Tests/Data/password-rules/
/// vectors.json` is what the reference made of each string of `corpus.jsonl`
/// (`node scripts/password-rules-vectors.js PasswordRulesParser.js < corpus.jsonl`).
@Suite("Password rules")
struct PasswordRulesTests {
    struct Vector: Decodable, CustomTestStringConvertible {
        struct Rule: Decodable, Equatable {
            enum Value: Equatable {
                case number(Int)
                case classes([Class])
            }
            struct Class: Decodable, Equatable {
                var named: String?
                var custom: String?
            }
            var name: String
            var value: Value

            enum CodingKeys: String, CodingKey { case name, value }
            init(name: String, value: Value) {
                self.name = name
                self.value = value
            }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                name = try container.decode(String.self, forKey: .name)
                if let number = try? container.decode(Int.self, forKey: .value) {
                    value = .number(number)
                } else {
                    value = .classes(try container.decode([Class].self, forKey: .value))
                }
            }
        }
        var input: String
        var errors: Int
        var rules: [Rule]
        var testDescription: String { String(reflecting: input) }
    }

    static let vectors: [Vector] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Data/password-rules/vectors.json")
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([Vector].self, from: data)) ?? []
    }()

    /// The rules in the reference's output shape.
    static func shape(_ rules: PasswordRules) -> [Vector.Rule] {
        func classes(_ list: [PasswordCharacterClass]) -> Vector.Rule.Value {
            .classes(
                list.map { characterClass in
                    if case .custom(let characters) = characterClass {
                        return Vector.Rule.Class(named: nil, custom: String(decoding: characters, as: UTF8.self))
                    }
                    return Vector.Rule.Class(named: characterClass.canonical, custom: nil)
                })
        }
        var shape = rules.required.map { Vector.Rule(name: "required", value: classes($0)) }
        shape.append(Vector.Rule(name: "allowed", value: classes(rules.allowed)))
        if let value = rules.maxConsecutive {
            shape.append(Vector.Rule(name: "max-consecutive", value: .number(value)))
        }
        if let value = rules.minLength { shape.append(Vector.Rule(name: "minlength", value: .number(value))) }
        if let value = rules.maxLength { shape.append(Vector.Rule(name: "maxlength", value: .number(value))) }
        return shape
    }

    @Test func theVectorsArePresent() {
        #expect(Self.vectors.count >= 90)
        #expect(Self.vectors.contains { $0.errors > 0 })
        #expect(Self.vectors.contains { $0.errors == 0 && $0.rules.count > 2 })
    }

    @Test(arguments: vectors)
    func agreesWithTheReference(_ vector: Vector) {
        let (rules, diagnostics) = PasswordRulesParser.parse(vector.input)
        #expect(Self.shape(rules) == vector.rules)
        // As many problems as the reference reports (it gives no positions; these carry them).
        #expect(diagnostics.count == vector.errors, "\(diagnostics)")
        #expect(diagnostics.allSatisfy { $0.position >= 0 && $0.position <= vector.input.utf16.count })
    }

    /// The canonical form is clean and reads back as the same rules.
    @Test(arguments: vectors)
    func theCanonicalFormReadsBackTheSame(_ vector: Vector) {
        let rules = PasswordRulesParser.parse(vector.input).rules
        let again = PasswordRulesParser.parse(rules.canonical)
        #expect(again.diagnostics.isEmpty, "\(rules.canonical): \(again.diagnostics)")
        #expect(again.rules == rules, "\(rules.canonical)")
    }

    @Test func problemsNameTheirPosition() {
        // The unknown rule, then (as the reference does) the missing ';' after what it skipped.
        #expect(
            PasswordRulesParser.parse("minlength: 8; unknown: 12;").diagnostics == [
                PasswordRulesDiagnostic(position: 14, message: "unknown rule \"unknown\""),
                PasswordRulesDiagnostic(position: 14, message: "expected ';' before the next rule"),
            ])
        #expect(PasswordRulesParser.parse("minlength: 12x;").diagnostics.first?.position == 13)
        #expect(PasswordRulesParser.parse("required: lower upper;").diagnostics.first?.position == 16)
        #expect(PasswordRulesParser.parse("allowed: [a-b];").diagnostics.map(\.position) == [11])
        #expect(PasswordRulesParser.parse("minlength: 12; maxlength: 64;").diagnostics.isEmpty)
    }

    @Test func mergeKeepsEachRequiredRuleAndTheStrictestNumbers() {
        let (rules, diagnostics) = PasswordRulesParser.parse(
            "required: upper, lower; required: digit; minlength: 8; minlength: 12; maxlength: 64; maxlength: 32;"
                + " allowed: [-!]; max-consecutive: 3; max-consecutive: 2;")
        #expect(diagnostics.isEmpty)
        #expect(rules.required == [[.upper, .lower], [.digit]])
        #expect(rules.allowed == [.upper, .lower, .digit, .custom(Array("!-".utf8))])
        #expect((rules.minLength, rules.maxLength, rules.maxConsecutive) == (12, 32, 2))
        #expect(
            rules.canonical
                == "required: upper, lower; required: digit; allowed: upper, lower, digit, [-!]; max-consecutive: 2;"
                + " minlength: 12; maxlength: 32;")
    }
}

@Suite("Password rules: checking a password")
struct PasswordRulesCheckTests {
    func rules(_ text: String) -> PasswordRules {
        let (rules, diagnostics) = PasswordRulesParser.parse(text)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return rules
    }

    @Test func oneVerdictPerRuleInAuth0sShape() {
        let rules = rules("minlength: 8; maxlength: 12; required: lower; required: upper, digit; allowed: [-!];")
        let verdicts = rules.check("abcdefg!")
        #expect(
            verdicts.map(\.code) == [
                "lengthAtLeast", "lengthAtMost", "containsAtLeast", "containsAtLeast", "allowedCharacters",
            ])
        #expect(verdicts.map(\.verified) == [true, true, true, false, true])
        #expect(verdicts[0].format == [8])
        #expect(verdicts[3].items.map(\.code) == ["upperCase", "numbers"])
        #expect(verdicts[3].format == [1, 2])
        #expect(rules.allows("abcdefG!"))
        #expect(!rules.allows("abcdefG?"))  // '?' is not allowed
        #expect(!rules.allows("abcdefghijkL9"))  // 13 characters
    }

    @Test func spaceIsSpecialAndNothingIsTrimmed() {
        // A required class is allowed too, and once anything is named, only what is named is
        // allowed: `required: special` alone would allow nothing but specials.
        #expect(!self.rules("required: special;").allows("ab c"))
        let rules = rules("required: special; allowed: lower; minlength: 4;")
        #expect(rules.allows("ab c"))
        #expect(!rules.allows("abcd"))
        #expect(!rules.allows(" ab"))  // three characters: the space counts, and is not trimmed
        #expect(rules.allows(" ab "))
    }

    @Test func lengthCountsCodePoints() {
        let rules = rules("minlength: 4; maxlength: 4; allowed: unicode;")
        #expect(rules.allows("ééé1"))  // 4 code points, 7 bytes
        #expect(rules.allows("👍👍👍👍"))  // 4 code points, 8 UTF-16 units
        #expect(!rules.allows("e\u{301}e\u{301}e"))  // 5 code points (normalise before checking)
        #expect(!self.rules("allowed: ascii-printable;").allows("ümlaut"))
    }

    @Test func maxConsecutiveLimitsRepeatsAndSequencesBoth() {
        let consecutive = rules("max-consecutive: 2;")
        #expect(consecutive.allows("aab1ba"))
        #expect(!consecutive.allows("aaab"))  // three identical
        #expect(!consecutive.allows("xabc"))  // ascending run of three
        #expect(!consecutive.allows("x321"))  // descending run of three
        #expect(!consecutive.allows("CBAx"))
        #expect(consecutive.allows("ab-cd"))  // the dash breaks the run
        #expect(consecutive.allows("yzA"))  // z to A is not a step within one range
        let repeating = rules("max-repeating: 3;")
        #expect(repeating.allows("aaabcdef"))
        #expect(!repeating.allows("aaaa"))
        let sequential = rules("max-sequential: 3;")
        #expect(sequential.allows("aaaaabc"))
        #expect(!sequential.allows("abcd"))
        #expect(rules("max-repeating: 2; max-sequential: 4; max-consecutive: 3;").maxRepeating == 2)
    }

    @Test func theNewRunNamesMergeAndPrint() {
        let rules = rules("max-repeating: 4; max-repeating: 2; max-sequential: 3; minlength: 12;")
        #expect((rules.maxRepeating, rules.maxSequential) == (2, 3))
        #expect(rules.canonical == "allowed: ascii-printable; max-repeating: 2; max-sequential: 3; minlength: 12;")
        #expect(PasswordRulesParser.parse(rules.canonical).rules == rules)
    }
}

import SesameService

/// A connection's password rules as the pages show them: a checklist under each new-password
/// field that the script ticks as the user types, and the reason a refused password gives. Both
/// come from the rules string the server enforces (`PasswordRules.list`), the one `passwordrules`
/// carries, so what the page says is what the server checks.
enum PasswordChecklist {
    /// The list for `rules`, tied to the field whose id is `fieldID` (the field names it in
    /// `aria-describedby`), with the rules for the script in `data-rules`.
    static func list(_ rules: String, fieldID: String, locale: PageLocale) -> HTML {
        let shown = PasswordRulesParser.parse(rules).rules.list.filter(isShown)
        guard !shown.isEmpty else { return .empty }
        let items = shown.map { rule -> HTML in "<li>\(text(rule, locale))</li>" }
        let json = "[" + shown.map(json).joined(separator: ",") + "]"
        return """
            <div class="password-rules" id="\(fieldID)-rules" data-rules="\(json)">\
            <p>\(Catalog.text(.passwordRulesHeading, locale))</p><ul>\(items.joined())</ul></div>
            """
    }

    /// Whether a rule says anything: a password may hold any character is no rule.
    static func isShown(_ rule: PasswordRule) -> Bool {
        if case .allowed(let classes) = rule { return !classes.contains(.unicode) }
        return true
    }

    /// The rules a refused password broke, as the list words them.
    static func broken(rules: String, verdicts: [PasswordRuleVerdict], locale: PageLocale) -> [String] {
        let list = PasswordRulesParser.parse(rules).rules.list
        return zip(list, verdicts).filter { !$0.1.verified && isShown($0.0) }.map { text($0.0, locale) }
    }

    /// One rule, in words.
    static func text(_ rule: PasswordRule, _ locale: PageLocale) -> String {
        func filled(_ key: Text, _ argument: String) -> String { Catalog.filled(key, locale, [argument]) }
        switch rule {
        case .minLength(let count): return filled(.ruleMinLength, String(count))
        case .maxLength(let count): return filled(.ruleMaxLength, String(count))
        case .required(let classes):
            return filled(
                .ruleRequired, classes.map { name($0, locale) }.joined(separator: Catalog.raw(.ruleOr, locale)))
        case .allowed(let classes):
            return filled(
                .ruleAllowed, classes.map { name($0, locale) }.joined(separator: Catalog.raw(.ruleAnd, locale)))
        case .maxRepeating(let count): return filled(.ruleRepeating, String(count))
        case .maxSequential(let count): return filled(.ruleSequential, String(count))
        }
    }

    /// A character class, in words.
    static func name(_ characterClass: PasswordCharacterClass, _ locale: PageLocale) -> String {
        switch characterClass {
        case .lower: return Catalog.raw(.classLower, locale)
        case .upper: return Catalog.raw(.classUpper, locale)
        case .digit: return Catalog.raw(.classDigit, locale)
        case .special: return Catalog.raw(.classSpecial, locale)
        case .asciiPrintable: return Catalog.raw(.classASCII, locale)
        case .unicode: return Catalog.raw(.classAny, locale)
        case .custom(let characters):
            return Catalog.filled(.classCustom, locale, [String(decoding: characters, as: UTF8.self)])
        }
    }

    /// A rule for the script: `{"min":12}`, `{"required":["lower","[-!]"]}`, … (classes by their
    /// canonical names).
    static func json(_ rule: PasswordRule) -> String {
        func classes(_ list: [PasswordCharacterClass]) -> String {
            "[" + list.map { JSONText.quote($0.canonical) }.joined(separator: ",") + "]"
        }
        switch rule {
        case .minLength(let count): return "{\"min\":\(count)}"
        case .maxLength(let count): return "{\"max\":\(count)}"
        case .required(let list): return "{\"required\":\(classes(list))}"
        case .allowed(let list): return "{\"allowed\":\(classes(list))}"
        case .maxRepeating(let count): return "{\"repeating\":\(count)}"
        case .maxSequential(let count): return "{\"sequential\":\(count)}"
        }
    }
}

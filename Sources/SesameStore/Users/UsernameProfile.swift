import Foundation

/// RFC 8265's UsernameCaseMapped profile, as Sesame applies it to usernames before it compares or
/// stores them: fullwidth and halfwidth characters are mapped to their ordinary forms (§3.3.1,
/// the width mapping rule), letters to lower case (§3.3.2, Unicode `toLowerCase`), and the result
/// to Unicode NFC (§3.3.3). So `Ａｄａ`, `ADA` and `ada` are one username, and halfwidth katakana
/// `ｶﾞ` is `ガ`.
public enum UsernameProfile {
    /// The username as compared and stored.
    public static func caseMapped(_ value: String) -> String {
        var mapped = ""
        mapped.unicodeScalars.reserveCapacity(value.unicodeScalars.count)
        for scalar in value.unicodeScalars {
            if isWide(scalar) || isNarrow(scalar) {
                // Their compatibility decomposition is exactly the <wide>/<narrow> mapping.
                mapped += String(scalar).precomposedStringWithCompatibilityMapping
            } else {
                mapped.unicodeScalars.append(scalar)
            }
        }
        return mapped.lowercased().precomposedStringWithCanonicalMapping
    }

    /// Characters whose decomposition is tagged <wide>: the ideographic space and the fullwidth forms.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3000, 0xFF01...0xFF60, 0xFFE0...0xFFE6: return true
        default: return false
        }
    }

    /// Characters whose decomposition is tagged <narrow>: the halfwidth forms.
    static func isNarrow(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFF61...0xFFDC, 0xFFE8...0xFFEE: return true
        default: return false
        }
    }
}

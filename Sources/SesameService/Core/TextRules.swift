import Foundation
import SesameStore
import SesameWire

/// The one set of rules for text that people type and others see: identifiers (email, username)
/// and profile text (names, nickname), on every path that stores them (signup, Management API).
///
/// Identifiers are compared in Unicode NFC, so `josé` typed precomposed and decomposed is one user;
/// emails are also lower-cased whole (as Auth0 does). Text may not hold characters that make it
/// render as something it is not, or that break the formats it flows into (id tokens, logs, HTML).
enum TextRules {
    /// Scalars no identifier or profile text may hold (`UnsafeText`, shared with the document).
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool { UnsafeText.contains(scalar) }

    /// True when `text` holds a scalar `isUnsafe` refuses.
    static func containsUnsafe(_ text: String) -> Bool { text.unicodeScalars.contains(where: isUnsafe) }

    /// Unicode Normalization Form C.
    static func nfc(_ text: String) -> String { text.precomposedStringWithCanonicalMapping }

    /// An email address as stored and compared: NFC, lower-cased.
    static func email(_ value: String) -> String { nfc(value).lowercased() }

    /// A username as stored and compared: RFC 8265's UsernameCaseMapped profile (width mapping,
    /// lower case, NFC; `UsernameProfile`).
    static func username(_ value: String) -> String { UsernameProfile.caseMapped(value) }

    /// Profile or display text: NFC, 1 to `max` characters and at most 4 × `max` bytes, nothing unsafe.
    static func text(_ value: String, _ field: String, max: Int) throws(ServiceError) -> String {
        let normalized = nfc(value)
        guard !normalized.isEmpty, normalized.count <= max, normalized.utf8.count <= 4 * max else {
            throw .invalidRequest("\(field) must be 1 to \(max) characters")
        }
        guard !containsUnsafe(normalized) else {
            throw .invalidRequest("\(field) must not contain control, invisible or bidirectional formatting characters")
        }
        return normalized
    }
}

import WebAuthn

/// Writes the small JSON documents the authenticator emits (clientDataJSON, credential JSON) with
/// members in a fixed order, as browsers do.
struct JSONText {
    private(set) var text = "{"
    private var first = true

    /// A JSON string literal for `value` (RFC 8259 §7: quote, backslash and control characters escaped).
    static func quoted(_ value: String) -> String { JSONValue.quoted(value) }

    /// Adds a member whose value is already JSON.
    mutating func raw(_ name: String, _ json: String) {
        text += (first ? "" : ",") + JSONText.quoted(name) + ":" + json
        first = false
    }

    /// Adds a string member.
    mutating func string(_ name: String, _ value: String) {
        raw(name, JSONText.quoted(value))
    }

    /// Adds a boolean member.
    mutating func bool(_ name: String, _ value: Bool) {
        raw(name, value ? "true" : "false")
    }

    /// The finished object.
    var json: String { text + "}" }
}

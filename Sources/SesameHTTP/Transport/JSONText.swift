import WebAuthn

/// JSON string quoting for the transport's own output (error bodies, log lines).
enum JSONText {
    /// `"…"` with `"`, `\\`, control characters, U+2028 and U+2029 escaped.
    static func quote(_ text: String) -> String { JSONValue.quoted(text) }
}

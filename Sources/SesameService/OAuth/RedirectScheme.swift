/// URL schemes that are never a redirect target: a browser runs or reads them instead of
/// handing the answer to an app (`javascript:` and `vbscript:` run script in the page that
/// follows them, `data:` is a document of the sender's making, `file:` reads the user's disk).
/// The Management API and the admin page refuse them as callback and logout URLs, and the
/// authorization, logout and enrollment endpoints never send a browser to one, even if an older
/// record holds it.
public enum RedirectScheme {
    public static let refused: Set<String> = ["javascript", "data", "vbscript", "file"]

    /// The scheme of `url` as a browser reads it (ASCII tabs, newlines and leading controls or
    /// spaces dropped, case folded), when it is one of `refused`.
    public static func refusedScheme(_ url: String) -> String? {
        var scheme = ""
        for scalar in url.unicodeScalars {
            if scalar == ":" { break }
            // WHATWG URL: leading C0 controls and spaces are stripped, tabs and newlines removed.
            if scalar.value <= 0x20 { continue }
            guard scalar.isASCII, scheme.utf8.count < 16 else { return nil }
            scheme.unicodeScalars.append(scalar)
        }
        let folded = scheme.lowercased()
        return refused.contains(folded) ? folded : nil
    }
}

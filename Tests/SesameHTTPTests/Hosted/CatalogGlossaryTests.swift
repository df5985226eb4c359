import Testing

@testable import SesameHTTP

/// The Japanese catalogue keeps docs/i18n.md's glossary and typography.
@Suite("Hosted pages: the Japanese glossary")
struct CatalogGlossaryTests {
    static func isJapanese(_ scalar: Unicode.Scalar) -> Bool {
        (0x3040...0x30FF).contains(scalar.value) || (0x4E00...0x9FFF).contains(scalar.value)
    }

    @Test("one word per idea: ログイン (bar the product name), 2段階認証; full-width punctuation after Japanese")
    func japanese() {
        for key in Text.allCases {
            let text = Catalog.japanese(key)
            #expect(
                !text.replacingOccurrences(of: "「Appleでサインイン」", with: "").contains("サインイン"),
                "\(key): \(text)")
            #expect(!text.contains("サインアウト") && !text.contains("2要素認証"), "\(key): \(text)")
            // No ASCII comma, colon or question mark right after a Japanese character.
            let scalars = Array(text.unicodeScalars)
            for (index, scalar) in scalars.enumerated().dropFirst()
            where [",", ":", "?"].contains(scalar) && Self.isJapanese(scalars[index - 1]) {
                Issue.record("\(key): ASCII \(scalar) after Japanese in \(text)")
            }
        }
    }
}

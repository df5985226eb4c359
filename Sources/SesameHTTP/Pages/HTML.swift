import SesameQR

/// Markup for the hosted pages, escaped by construction: in an `HTML` literal, an interpolated
/// `String` is escaped (`&`, `<`, `>`, `"`, `'`), an interpolated `HTML` passes through as markup,
/// and an `Int` is its digits. Nothing else can be interpolated, so a value can only reach a page
/// escaped, or as markup some builder made. No page file can take a `String` as markup unescaped:
/// the markup this file makes itself (a QR code's SVG, `HTML(qrCode:)`) is the only exception.
/// Package-wide, so the test stand-ins' pages (the fake Apple ID) are built the same way.
package struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The markup.
    package private(set) var markup: String

    /// A literal in the source is markup.
    package init(stringLiteral literal: String) { markup = literal }

    package init(stringInterpolation interpolation: Interpolation) { markup = interpolation.markup }

    /// Markup made in this file, never from a request or a record.
    fileprivate init(trusted markup: String) { self.markup = markup }

    /// `text` as a QR code: libqrencode's matrix drawn as SVG by SesameQR (rectangles and numbers,
    /// no text of the input); empty when the text does not fit a code.
    init(qrCode text: String) { self.init(trusted: QRMatrix(text)?.svg ?? "") }

    /// JSON as the content of a `<script type="application/json">` element: `<`, `>` and `&` as
    /// JSON escapes, so it can neither end the element nor open a comment, and reads back the same.
    init(scriptJSON json: String) {
        markup = json.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
    }

    package static let empty: HTML = ""

    var isEmpty: Bool { markup.isEmpty }

    package var description: String { markup }

    static func + (left: HTML, right: HTML) -> HTML { HTML(trusted: left.markup + right.markup) }

    static func += (left: inout HTML, right: HTML) { left.markup += right.markup }

    package struct Interpolation: StringInterpolationProtocol {
        var markup = ""

        package init(literalCapacity: Int, interpolationCount: Int) { markup.reserveCapacity(literalCapacity * 2) }

        package mutating func appendLiteral(_ literal: String) { markup += literal }

        /// Text: escaped.
        package mutating func appendInterpolation(_ text: String) { markup += HTMLText.escape(text) }

        /// Markup: as it is.
        package mutating func appendInterpolation(_ html: HTML) { markup += html.markup }

        /// A number: its digits.
        package mutating func appendInterpolation(_ number: Int) { markup += String(number) }
    }
}

extension Sequence where Element == HTML {
    /// The markups one after another, `separator` between them.
    package func joined(separator: HTML = .empty) -> HTML {
        HTML(trusted: map(\.markup).joined(separator: separator.markup))
    }
}

/// The one escaper of HTML text (`HTML` calls it; nothing else should).
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as character references.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}

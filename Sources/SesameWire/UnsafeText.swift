/// The scalars no identifier or text that people type and others see may hold: controls (C0,
/// DEL, C1), line and paragraph separators, bidirectional formatting characters (which reorder
/// what is shown, e.g. U+202E), and invisible characters (zero-width space, word joiners,
/// invisible operators, byte-order mark, interlinear annotation). The joiners that scripts and
/// emoji need (U+200C, U+200D) are allowed. The server's text rules refuse these, and the OpenAPI
/// document's pattern for such text is written from the same list.
public enum UnsafeText {
    public static let ranges: [ClosedRange<UInt32>] = [
        0x00...0x1F, 0x7F...0x9F,  // C0, DEL, C1
        0x2028...0x2029,  // line and paragraph separators
        0x061C...0x061C, 0x200E...0x200F, 0x202A...0x202E, 0x2066...0x2069,  // bidi formatting
        0x200B...0x200B, 0x2060...0x2064, 0xFEFF...0xFEFF,  // zero-width space, word joiner, invisible operators, BOM
        0xFFF9...0xFFFB,  // interlinear annotation
    ]

    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        ranges.contains { $0.contains(scalar.value) }
    }

    /// An anchored ECMA-262 pattern of one or more scalars none of which is unsafe.
    public static let pattern: String = {
        func escaped(_ value: UInt32) -> String {
            let hex = String(value, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        let classes = ranges.map { range in
            range.count == 1 ? escaped(range.lowerBound) : escaped(range.lowerBound) + "-" + escaped(range.upperBound)
        }
        return "^[^" + classes.joined() + "]+$"
    }()
}
